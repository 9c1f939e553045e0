/**
 * What no log line may carry, removed from whatever a logger is given (pinoOptions() runs every
 * log call of every process through scrubLogArguments): the parameters of a failed SQL query
 * (drizzle's DrizzleQueryError puts them all in its message, "Failed query: <sql>\nparams: <values>",
 * and in its `params`), access tokens, credential query parameters, passwords in URLs, the token
 * of a chat webhook URL, and the values of fields named like credentials. The SQL text and
 * PostgreSQL's error message stay: they are what an operator needs.
 */
export const FILTERED = "[FILTERED]";

const PARAMS_MARK = "\nparams: ";

/**
 * Drops the parameter list of every "Failed query: …\nparams: …" in a text. Values may hold any
 * character, so where the list ends cannot be told from the text: everything after the mark goes.
 * (An Error's own message is known exactly, and its stack keeps its frames: see scrubError.)
 */
function withoutQueryParams(text: string): string {
  let from = 0;
  for (;;) {
    const query = text.indexOf("Failed query: ", from);
    if (query < 0) return text;
    const mark = text.indexOf(PARAMS_MARK, query);
    if (mark < 0) return text;
    const start = mark + PARAMS_MARK.length;
    if (!text.startsWith(FILTERED, start)) return `${text.slice(0, start)}${FILTERED}`;
    from = start + FILTERED.length;
  }
}

/** GitLab's token prefixes (personal, OAuth, deploy, runner, CI job, trigger, feed, mail, agent, SCIM, feature flags) and runner registration tokens. */
const ACCESS_TOKEN = /\b((?:glpat|gloas|gldt|glrt|glcbt|glptt|glft|glimt|glagent|glsoat|glffct)-|GR1348941)[0-9A-Za-z_.-]+/g;
/** name=value pairs of credentials, in query strings and connection strings alike. */
const CREDENTIAL_PAIR = /\b((?:private_|access_|job_|deploy_|feed_|refresh_)?token|password|passwd|secret|api_key)=[^&\s"',;)]+/gi;
/** The password of a URL's userinfo (postgres://user:password@host, smtp://…). */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:)[^\s@/]+@/gi;
/** The token of a Discord or Slack webhook URL (its path is the credential). */
const WEBHOOK_TOKEN = /(\/api\/webhooks\/\d+\/|hooks\.slack\.com\/services\/)[^\s"'?#]+/g;

/** A text without query parameters and known secret patterns. */
export function scrubText(text: string): string {
  return withoutQueryParams(text)
    .replace(ACCESS_TOKEN, `$1${FILTERED}`)
    .replace(CREDENTIAL_PAIR, `$1=${FILTERED}`)
    .replace(URL_PASSWORD, `$1${FILTERED}@`)
    .replace(WEBHOOK_TOKEN, `$1${FILTERED}`);
}

/** Fields whose value is a credential whatever it looks like (headers, params, settings), in snake case. */
const CREDENTIAL_FIELD = /(?:^|[_-])(?:password|passwd|secret|token|api_key|private_key|authorization|cookie|webhook)$/;
const isCredentialField = (key: string) => CREDENTIAL_FIELD.test(key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase());
/** Fields of an error that hold a query's values (drizzle's DrizzleQueryError.params). */
const QUERY_VALUES_FIELD = new Set(["params", "parameters"]);

const MAX_DEPTH = 8;

/** A copy of an error, its message and stack scrubbed, its query values dropped, its cause scrubbed too. */
function scrubError(err: Error, seen: WeakSet<object>, depth: number): Error {
  const copy = Object.create(Object.getPrototypeOf(err) as object) as Error;
  const message = scrubText(String(err.message ?? ""));
  // The stack starts with the message: swapping that exact text keeps the frames (the text-only
  // scrubbing after it must cut everything following an unfiltered params list).
  let stack = typeof err.stack === "string" ? err.stack : undefined;
  if (stack !== undefined && err.message) stack = stack.replace(err.message, () => message);
  Object.defineProperty(copy, "message", { value: message, writable: true, configurable: true });
  if (stack !== undefined) Object.defineProperty(copy, "stack", { value: scrubText(stack), writable: true, configurable: true });
  if (Object.prototype.hasOwnProperty.call(err, "name")) copy.name = err.name;
  for (const key of Object.keys(err)) {
    if (QUERY_VALUES_FIELD.has(key)) continue;
    (copy as unknown as Record<string, unknown>)[key] = scrubField(key, (err as unknown as Record<string, unknown>)[key], seen, depth + 1);
  }
  const cause = (err as { cause?: unknown }).cause;
  if (cause !== undefined) Object.defineProperty(copy, "cause", { value: scrubValue(cause, seen, depth + 1), writable: true, configurable: true, enumerable: false });
  return copy;
}

function scrubField(key: string, value: unknown, seen: WeakSet<object>, depth: number): unknown {
  if (isCredentialField(key) && value !== null && value !== undefined && typeof value !== "object" && typeof value !== "boolean") return FILTERED;
  return scrubValue(value, seen, depth);
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A value as it may be logged: texts scrubbed, errors copied without their query values, plain
 * objects and arrays walked (credential fields filtered). Other objects (dates, buffers) pass
 * as they are. The original is never changed.
 */
export function scrubValue(value: unknown, seen = new WeakSet<object>(), depth = 0): unknown {
  if (typeof value === "string") return scrubText(value);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[Circular]";
  if (depth > MAX_DEPTH) return "[Object]";
  seen.add(value);
  try {
    if (value instanceof Error) return scrubError(value, seen, depth);
    if (Array.isArray(value)) return value.map((v) => scrubValue(v, seen, depth + 1));
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = scrubField(key, v, seen, depth + 1);
    return out;
  } finally {
    seen.delete(value);
  }
}

/** The arguments of a log call (merging object, message, interpolation values), scrubbed. */
export const scrubLogArguments = (args: unknown[]): unknown[] => args.map((a) => scrubValue(a));
