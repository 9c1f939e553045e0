import { cursorPage, page, uncountedPage } from "@collab/core";
import { cursorLink, paginationHeaders } from "./pagination";

/** Headers for `total` items seen at `pageNo` of `perPage`, requested at `url`. */
const headersFor = (total: number, pageNo: number, perPage: number, url = "http://collab.test/api/v4/users") =>
  paginationHeaders(page([], total, { page: pageNo, per_page: perPage }), new URL(url));

const links = (link: string) => link.split(", ").map((l) => /^<([^>]+)>; rel="(\w+)"$/.exec(l)!.slice(1).reverse());

describe("paginationHeaders", () => {
  test("a middle page: every header, and prev, next, first, last in that order", () => {
    const h = headersFor(95, 2, 20);
    expect(h).toEqual({
      "X-Page": "2",
      "X-Per-Page": "20",
      "X-Next-Page": "3",
      "X-Prev-Page": "1",
      "X-Total": "95",
      "X-Total-Pages": "5",
      Link: [
        '<http://collab.test/api/v4/users?page=1&per_page=20>; rel="prev"',
        '<http://collab.test/api/v4/users?page=3&per_page=20>; rel="next"',
        '<http://collab.test/api/v4/users?page=1&per_page=20>; rel="first"',
        '<http://collab.test/api/v4/users?page=5&per_page=20>; rel="last"',
      ].join(", "),
    });
  });

  test("the first page has no prev, the last no next, and their headers are empty strings", () => {
    const first = headersFor(45, 1, 20);
    expect(first).toMatchObject({ "X-Prev-Page": "", "X-Next-Page": "2", "X-Total-Pages": "3" });
    expect(links(first.Link).map(([rel]) => rel)).toEqual(["next", "first", "last"]);

    const last = headersFor(45, 3, 20);
    expect(last).toMatchObject({ "X-Prev-Page": "2", "X-Next-Page": "" });
    expect(links(last.Link).map(([rel]) => rel)).toEqual(["prev", "first", "last"]);
  });

  test("a single page of exactly per_page items has neither", () => {
    const h = headersFor(20, 1, 20);
    expect(h).toMatchObject({ "X-Total-Pages": "1", "X-Prev-Page": "", "X-Next-Page": "" });
    expect(links(h.Link)).toEqual([
      ["first", "http://collab.test/api/v4/users?page=1&per_page=20"],
      ["last", "http://collab.test/api/v4/users?page=1&per_page=20"],
    ]);
  });

  test("an empty list still has one page", () => {
    expect(headersFor(0, 1, 20)).toMatchObject({ "X-Total": "0", "X-Total-Pages": "1", "X-Prev-Page": "", "X-Next-Page": "" });
  });

  test("a page past the end has neither prev nor next (Kaminari's out_of_range)", () => {
    const h = headersFor(45, 7, 20);
    expect(h).toMatchObject({ "X-Page": "7", "X-Prev-Page": "", "X-Next-Page": "", "X-Total-Pages": "3" });
    expect(links(h.Link).map(([rel, url]) => `${rel} ${url}`)).toEqual([
      "first http://collab.test/api/v4/users?page=1&per_page=20",
      "last http://collab.test/api/v4/users?page=3&per_page=20",
    ]);
  });

  test("links keep every other parameter, replace page and per_page, and sort keys as Rails' to_query", () => {
    const h = headersFor(3, 2, 1, "http://collab.test/api/v4/users?sort=asc&page=2&search=a%20b&per_page=1&active=true&labels[]=x&labels[]=y");
    const [, prev] = links(h.Link)[0];
    expect(prev).toBe("http://collab.test/api/v4/users?active=true&labels%5B%5D=x&labels%5B%5D=y&page=1&per_page=1&search=a+b&sort=asc");
  });

  test("links carry the effective per_page, not the one asked for", () => {
    const h = headersFor(150, 1, 100, "http://collab.test/api/v4/users?per_page=500");
    expect(h["X-Per-Page"]).toBe("100");
    expect(h.Link).not.toContain("per_page=500");
    expect(links(h.Link)[0]).toEqual(["next", "http://collab.test/api/v4/users?page=2&per_page=100"]);
  });

  test("a Link header a client could not read is left out; the X-* headers remain", () => {
    const huge = `http://collab.test/api/v4/issues?search=${"x".repeat(3000)}`;
    const h = headersFor(100, 2, 20, huge);
    expect(h.Link).toBeUndefined();
    expect(h).toMatchObject({ "X-Page": "2", "X-Next-Page": "3", "X-Prev-Page": "1", "X-Total": "100" });
    expect(headersFor(100, 2, 20, "http://collab.test/api/v4/issues?search=x").Link).toContain('rel="next"');
  });
});

describe("an uncounted page (GitLab's without_count)", () => {
  test("no X-Total, X-Total-Pages or last link; the next page only when there is one", () => {
    const url = new URL("http://collab.test/api/v4/projects/1/repository/commits?per_page=2&page=2");
    const middle = paginationHeaders(uncountedPage([1, 2], true, { page: 2, per_page: 2 }), url);
    expect(middle).not.toHaveProperty("X-Total");
    expect(middle).not.toHaveProperty("X-Total-Pages");
    expect(middle).toMatchObject({ "X-Page": "2", "X-Per-Page": "2", "X-Next-Page": "3", "X-Prev-Page": "1" });
    expect(links(middle.Link).map(([rel]) => rel)).toEqual(["prev", "next", "first"]);
    const last = paginationHeaders(uncountedPage([5], false, { page: 3, per_page: 2 }), url);
    expect(last).toMatchObject({ "X-Next-Page": "", "X-Prev-Page": "2" });
  });
});

describe("cursorLink (keyset pages)", () => {
  test("only rel=next, the request's params kept and the next page's merged, keys sorted; none on the last page", () => {
    const url = new URL("https://collab.example/api/v4/projects/1/packages/2/pipelines?per_page=2&cursor=old");
    expect(cursorLink(cursorPage([1, 2], { cursor: "abc", per_page: "2" }), url)).toBe('<https://collab.example/api/v4/projects/1/packages/2/pipelines?cursor=abc&per_page=2>; rel="next"');
    expect(cursorLink(cursorPage([3], null), url)).toBeUndefined();
  });
});
