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
}

export interface Reply<T> {
  $reply: true;
  status: number;
  body: T;
}

export const page = <T>(items: T[], total: number, p: { page: number; per_page: number }): Page<T> => ({
  $page: true,
  items,
  total,
  page: p.page,
  perPage: p.per_page,
});

/** A result whose status differs from the route's default (e.g. 200 instead of 201, 202 Accepted). */
export const reply = <T>(status: number, body: T): Reply<T> => ({ $reply: true, status, body });
export const accepted = () => reply(202, { message: "202 Accepted" });

export const isPage = (v: unknown): v is Page<unknown> => typeof v === "object" && v !== null && (v as Page<unknown>).$page === true;
export const isReply = (v: unknown): v is Reply<unknown> => typeof v === "object" && v !== null && (v as Reply<unknown>).$reply === true;
