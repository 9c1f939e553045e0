/**
 * The public key of a collector request: the `sentry_key` query param some SDKs send, else the
 * `sentry_key` of the `X-Sentry-Auth` header (`Sentry sentry_version=7, sentry_key=…, …`).
 * undefined when neither carries one; throws on a header that does not parse.
 */
export function publicKeyOf(queryKey: string | undefined, authHeader: string | undefined): string | undefined {
  if (queryKey) return queryKey;
  if (authHeader === undefined) return undefined;
  const fields = authHeader.replace(/^\s*Sentry\s+/i, "");
  const pairs = fields.split(",").map((part) => part.trim()).filter(Boolean);
  const entries = pairs.map((pair) => {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new Error("malformed X-Sentry-Auth");
    return [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()] as const;
  });
  return Object.fromEntries(entries).sentry_key || undefined;
}
