/**
 * One REST operation of the public API, declared by the service that owns it and mounted by the
 * gateway (the composition root, like GitLab's api.rb). Pure data: importing it loads no runtime.
 */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteDef {
  method: HttpMethod;
  /** Path under /api/v4 in moleculer-web syntax, e.g. "/projects/:id/members/:user_id". */
  path: string;
  /** Fully qualified action name, e.g. "namespaces.projects.get". */
  action: string;
  /**
   * "required" (default): 401 without credentials; "optional": anonymous callers allowed; "scim"
   * (routes outside /api/v4 only): no user is authenticated, the gateway resolves the request's
   * `Authorization: Bearer` credential to the group whose SCIM token it is (`ctx.meta.scimGroupId`,
   * null when absent or unknown) and the action decides, after its own lookups, whether that is 401.
   */
  auth?: "required" | "optional" | "scim";
  /** Token scopes accepted besides `api` (GET routes also accept read_api). */
  scopes?: readonly string[];
  /** Success status when the service does not say otherwise: POST 201, DELETE 204, else 200. */
  status?: number;
  /** Fixed params merged over the request's, for routes that are one action in another guise. */
  params?: Record<string, unknown>;
  /**
   * Multipart file fields handed to the action (as `{ filename, content_type, size, data }`, data
   * in base64); the gateway drops the file parts of every other route.
   */
  files?: readonly string[];
  /**
   * Deploy token scopes that let a deploy token (the `Deploy-Token` header, or HTTP Basic with the
   * token's username and secret) authenticate here; one of them is enough. Without this field a
   * deploy token is refused with 401. The action sees the token in `ctx.meta.caller.deployToken`
   * and must keep it to its own project or group (`requireDeployTokenReach`).
   */
  deployTokenScopes?: readonly string[];
  /**
   * A CI/CD job token authenticates here too: the `JOB-TOKEN` header, the `job_token` param, or a
   * Bearer/Basic secret with the job token prefix (Basic's username then `gitlab-ci-token`). The
   * caller is the job's user with `ctx.meta.caller.job` set; keep it to the job's project with
   * `requireJobTokenReach`. Without this field a job token is refused with 401.
   */
  jobToken?: boolean;
  /**
   * The body is not parsed: it reaches the action as a moleculer stream (`ctx.stream`, chunks sent
   * as separate bus packets, so a file never travels as one message), bounded only by
   * MAX_UPLOAD_BYTES at the gateway; the action counts bytes and applies its own limit. The params
   * carry `headers`: the request's content-type and content-length when sent.
   */
  streamBody?: boolean;
  /** Media type of the answers, error answers included (`application/scim+json`); JSON otherwise. */
  contentType?: string;
  /**
   * The body handed over unparsed, whatever its media type (SDK payloads such as error-tracking
   * envelopes): the action gets `raw_body` `{ content_type, data }` (data in base64, decoded from
   * any gzip, deflate or br Content-Encoding, bounded by MAX_BODY_BYTES) and `headers`, the request
   * headers named here (lower-case) that were sent.
   */
  rawBody?: { headers?: readonly string[] };
  /**
   * The action gets `client_info` (ClientInfo): the request's User-Agent and client IP, for what
   * GitLab records of a submission (a snippet's user agent detail).
   */
  clientInfo?: boolean;
}

/** What a `clientInfo` route's action receives as `client_info`. */
export interface ClientInfo {
  user_agent: string;
  ip_address: string;
}

/** What a `rawBody` route's action receives as `raw_body`. */
export interface RawBody {
  content_type: string | null;
  data: string;
}

export const defaultStatus = (r: RouteDef) => r.status ?? (r.method === "POST" ? 201 : r.method === "DELETE" ? 204 : 200);
