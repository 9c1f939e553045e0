import type { CursorPage, Page } from "@collab/core";

/**
 * Above this a Link header is left out: the query is repeated in up to four links, and a client's
 * header limit (16 KiB in Node's and undici's HTTP parsers) would refuse the whole answer. The
 * X-* headers still say where the pages are.
 */
export const MAX_LINK_HEADER = 8 * 1024;

/**
 * GitLab's offset pagination headers (without the totals for an uncounted page). Link URLs rebuild the request with every current query
 * param, keys sorted as Rails' to_query does, and page/per_page replaced.
 */
export function paginationHeaders(p: Page<unknown>, requestUrl: URL): Record<string, string> {
  const totalPages = Math.max(1, Math.ceil(p.total / p.perPage));
  // Kaminari: a page past the end has neither a next nor a previous page.
  const outOfRange = p.page > totalPages;
  const next = !outOfRange && p.page < totalPages ? p.page + 1 : null;
  const prev = !outOfRange && p.page > 1 ? p.page - 1 : null;
  // The request's params without page/per_page, parsed once for the four links.
  const kept = [...requestUrl.searchParams].filter(([k]) => k !== "page" && k !== "per_page");
  const base = `${requestUrl.origin}${requestUrl.pathname}?`;
  const linkTo = (pageNo: number) => {
    const query = new URLSearchParams([...kept, ["page", String(pageNo)], ["per_page", String(p.perPage)]]);
    query.sort();
    return base + query.toString();
  };
  const links: string[] = [];
  if (prev) links.push(`<${linkTo(prev)}>; rel="prev"`);
  if (next) links.push(`<${linkTo(next)}>; rel="next"`);
  links.push(`<${linkTo(1)}>; rel="first"`);
  if (!p.withoutCount) links.push(`<${linkTo(totalPages)}>; rel="last"`);
  const headers: Record<string, string> = {
    "X-Page": String(p.page),
    "X-Per-Page": String(p.perPage),
    "X-Next-Page": next ? String(next) : "",
    "X-Prev-Page": prev ? String(prev) : "",
  };
  // A list that was not counted (GitLab's without_count) has no totals to tell.
  if (!p.withoutCount) Object.assign(headers, { "X-Total": String(p.total), "X-Total-Pages": String(totalPages) });
  const link = links.join(", ");
  if (link.length <= MAX_LINK_HEADER) headers.Link = link;
  return headers;
}

/**
 * GitLab's keyset pagination header: only `rel="next"`, the request's URL with the next page's
 * params (`cursor`, …) merged in, keys sorted; none on the last page.
 */
export function cursorLink(p: CursorPage<unknown>, requestUrl: URL): string | undefined {
  if (!p.next) return undefined;
  const url = new URL(requestUrl.toString());
  for (const [k, v] of Object.entries(p.next)) url.searchParams.set(k, v);
  url.searchParams.sort();
  return `<${url.toString()}>; rel="next"`;
}
