import type { Page } from "@collab/core";

/**
 * GitLab's offset pagination headers. Link URLs rebuild the request with every current query
 * param, keys sorted as Rails' to_query does, and page/per_page replaced.
 */
export function paginationHeaders(p: Page<unknown>, requestUrl: URL): Record<string, string> {
  const totalPages = Math.max(1, Math.ceil(p.total / p.perPage));
  // Kaminari: a page past the end has neither a next nor a previous page.
  const outOfRange = p.page > totalPages;
  const next = !outOfRange && p.page < totalPages ? p.page + 1 : null;
  const prev = !outOfRange && p.page > 1 ? p.page - 1 : null;
  const link = (pageNo: number) => {
    const url = new URL(requestUrl.toString());
    url.searchParams.set("page", String(pageNo));
    url.searchParams.set("per_page", String(p.perPage));
    url.searchParams.sort();
    return url.toString();
  };
  const links: string[] = [];
  if (prev) links.push(`<${link(prev)}>; rel="prev"`);
  if (next) links.push(`<${link(next)}>; rel="next"`);
  links.push(`<${link(1)}>; rel="first"`);
  links.push(`<${link(totalPages)}>; rel="last"`);
  return {
    "X-Page": String(p.page),
    "X-Per-Page": String(p.perPage),
    "X-Next-Page": next ? String(next) : "",
    "X-Prev-Page": prev ? String(prev) : "",
    "X-Total": String(p.total),
    "X-Total-Pages": String(totalPages),
    Link: links.join(", "),
  };
}
