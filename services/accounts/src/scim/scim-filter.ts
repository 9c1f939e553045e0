/**
 * The `filter` of GET /Users (RFC 7644 §3.4.2.2) as GitLab's group SCIM API supports it: one
 * `eq` comparison on `id` or `externalId` (the identity's extern_uid) or `userName`. Attribute
 * names and the operator are case-insensitive, an attribute may carry the User schema's URN, the
 * value is a JSON string (or a bare word). Anything else — other attributes or operators, `and`,
 * `or`, `not`, groupings — is GitLab's "Unsupported Filter".
 */
export type ScimFilterAttribute = "extern_uid" | "username";

export interface ScimFilter {
  attribute: ScimFilterAttribute;
  value: string;
}

export class UnsupportedFilter extends Error {
  constructor() {
    super("Unsupported Filter");
  }
}

const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:user:";

const ATTRIBUTES: Record<string, ScimFilterAttribute> = { id: "extern_uid", externalid: "extern_uid", username: "username" };

/** `"a \"b\""` → `a "b"`; a bare word as it is; undefined for anything that is not one value. */
function parseValue(text: string): string | undefined {
  if (text.startsWith('"')) {
    const m = /^"((?:[^"\\]|\\.)*)"$/s.exec(text);
    if (!m) return undefined;
    try {
      return JSON.parse(`"${m[1]}"`) as string;
    } catch {
      return undefined;
    }
  }
  return /^[^\s()"[\]]+$/.test(text) ? text : undefined;
}

/** null when there is no filter; throws UnsupportedFilter for one GitLab does not support. */
export function parseScimFilter(filter: string | undefined | null): ScimFilter | null {
  if (filter === undefined || filter === null || filter.trim() === "") return null;
  const m = /^\s*(\S+)\s+(\S+)\s+(.*?)\s*$/s.exec(filter);
  if (!m) throw new UnsupportedFilter();
  let name = m[1].toLowerCase();
  if (name.startsWith(USER_SCHEMA)) name = name.slice(USER_SCHEMA.length);
  const attribute = ATTRIBUTES[name];
  const value = parseValue(m[3]);
  if (!attribute || m[2].toLowerCase() !== "eq" || value === undefined || value === "") throw new UnsupportedFilter();
  return { attribute, value };
}
