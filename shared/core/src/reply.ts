import { Readable } from "node:stream";

/**
 * Plain-data envelopes services return when the answer is more than a body.
 * The gateway turns them into HTTP (status, pagination headers); services never touch HTTP.
 */
export interface Page<T> {
  $page: true;
  items: T[];
  total: number;
  page: number;
  perPage: number;
  /**
   * GitLab's `paginate(…, without_count: true)`: the list was not counted (a repository's commits),
   * `total` only says whether a next page exists; no X-Total, X-Total-Pages or `last` link.
   */
  withoutCount?: true;
}

export interface Reply<T> {
  $reply: true;
  status: number;
  body: T;
  /** Extra response headers (GitLab's `X-Gitlab-*` of the files API). */
  headers?: Record<string, string>;
}

/**
 * A Page on its way to a gateway in another process (pageAsJsonMiddleware): the items already as
 * their JSON text, which the gateway writes out as it is instead of parsing the packet's items
 * into objects and serialising them again.
 */
export interface JsonPage {
  $page: true;
  itemsJson: string;
  total: number;
  page: number;
  perPage: number;
}

export const isJsonPage = (v: unknown): v is JsonPage => isPage(v) && typeof (v as unknown as JsonPage).itemsJson === "string";

export const page = <T>(items: T[], total: number, p: { page: number; per_page: number }): Page<T> => ({
  $page: true,
  items,
  total,
  page: p.page,
  perPage: p.per_page,
});

/**
 * A page of a list that is not counted: `hasNext` (read one item past the page) gives the next
 * page; the gateway leaves out the total headers, as GitLab's `without_count` pagination.
 */
export const uncountedPage = <T>(items: T[], hasNext: boolean, p: { page: number; per_page: number }): Page<T> => ({
  ...page(items, (p.page - 1) * p.per_page + items.length + (hasNext ? 1 : 0), p),
  withoutCount: true,
});

/** A result whose status differs from the route's default (e.g. 200 instead of 201, 202 Accepted), or that carries headers. */
export const reply = <T>(status: number, body: T, headers?: Record<string, string>): Reply<T> => ({ $reply: true, status, body, ...(headers ? { headers } : {}) });
export const accepted = () => reply(202, { message: "202 Accepted" });

/**
 * A keyset page (GitLab's cursor pagination, e.g. package pipelines): the gateway answers the
 * items with only a `Link: <…>; rel="next"` header, the request's URL with `next` merged into its
 * query, when there is a next page; no X-* headers.
 */
export interface CursorPage<T> {
  $cursorPage: true;
  items: T[];
  next: Record<string, string> | null;
}

export const cursorPage = <T>(items: T[], next: Record<string, string> | null): CursorPage<T> => ({ $cursorPage: true, items, next });
export const isCursorPage = (v: unknown): v is CursorPage<unknown> => typeof v === "object" && v !== null && (v as CursorPage<unknown>).$cursorPage === true;

export const isPage = (v: unknown): v is Page<unknown> => typeof v === "object" && v !== null && (v as Page<unknown>).$page === true;
export const isReply = (v: unknown): v is Reply<unknown> => typeof v === "object" && v !== null && (v as Reply<unknown>).$reply === true;

/**
 * A file download: the action returns the bytes as a stream (moleculer sends a stream over the
 * transporter in chunks, so no message grows with the file) and describes it in `ctx.meta.$file`,
 * which the gateway turns into Content-Type, Content-Disposition and Content-Length.
 */
export interface FileMeta {
  filename: string;
  contentType: string;
  size?: number;
  /** Extra response headers of the download (e.g. `X-Checksum-SHA256`). */
  headers?: Record<string, string>;
  /** `inline` for what a browser may show (GitLab's raw files and blobs); `attachment` by default. */
  disposition?: "inline" | "attachment";
}

export function fileResponse(ctx: { meta: object }, bytes: Buffer, file: FileMeta): Readable {
  (ctx.meta as { $file?: FileMeta }).$file = { ...file, size: file.size ?? bytes.length };
  return Readable.from([bytes], { objectMode: false });
}

export const isStream = (v: unknown): v is Readable =>
  typeof v === "object" && v !== null && typeof (v as Readable).pipe === "function" && (v as Readable).readable === true;
