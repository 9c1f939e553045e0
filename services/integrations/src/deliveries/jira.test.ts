import { applicable, authHeaders, closedKeys, commentBody, deliverToJira, issueKeys, jiraSettingsValid, JiraError, type JiraCall, type JiraMessage } from "./jira";

const message = (over: Partial<JiraMessage> = {}): JiraMessage => ({
  mentions: [],
  closes: [],
  user: { name: "Ann", url: "http://h/ann" },
  project: { name: "team/app", url: "http://h/team/app" },
  baseUrl: "http://h",
  ...over,
});
const mr = { name: "merge request", url: "http://h/team/app/-/merge_requests/3", title: "Fix totals", ref: "!3", branch: "fix" };

/** A Jira answering from a table of issues; every call recorded. */
function fakeJira(issues: Record<string, { id: string; resolution?: unknown; comments?: string[]; transitions?: unknown[]; links?: { id: number; object: { url: string } }[] }>, fail?: { path: RegExp; status: number }) {
  const calls: { method: string; path: string; body?: unknown }[] = [];
  const call: JiraCall = async (method, path, body) => {
    calls.push({ method, path, ...(body === undefined ? {} : { body }) });
    if (fail?.path.test(path)) return { status: fail.status, body: null };
    const [, ref, rest] = path.match(/^\/rest\/api\/2\/issue\/([^/?]+)(.*)$/) ?? [];
    const issue = Object.entries(issues).find(([key, i]) => key === ref || i.id === ref);
    if (!issue) return { status: 404, body: { errorMessages: ["Issue does not exist"] } };
    const [key, i] = issue;
    if (method === "GET" && rest.startsWith("/remotelink")) return { status: 200, body: i.links ?? [] };
    if (method === "GET") return { status: 200, body: { id: i.id, key, fields: { resolution: i.resolution ?? null, comment: { comments: (i.comments ?? []).map((b) => ({ body: b })) } }, ...(rest.includes("transitions") ? { transitions: i.transitions ?? [] } : {}) } };
    if (rest === "/transitions") i.resolution = { name: "Done" };
    return { status: method === "POST" && rest === "/remotelink" ? 201 : 204, body: null };
  };
  return { calls, call };
}

describe("Jira issue keys", () => {
  test("the default pattern: project keys in capitals, CVE ids left out, each once", () => {
    expect(issueKeys({}, ["Fixes PROJ-1 and APP_2-30, not proj-4, P-6 or PROJ-", "see PROJ-1 again; CVE-2024-1234"])).toEqual(["PROJ-1", "APP_2-30"]);
  });
  test("jira_issue_prefix and jira_issue_regex (RE2) narrow it", () => {
    expect(issueKeys({ jira_issue_prefix: "JIRA#" }, ["PROJ-1 and JIRA#PROJ-2"])).toEqual(["PROJ-2"]);
    expect(issueKeys({ jira_issue_regex: "[A-Z]{2}-\\d{3}" }, ["AB-123 ABC-123 AB-12"])).toEqual(["AB-123"]);
  });
  test("closing statements: a keyword, then a list of references", () => {
    expect(closedKeys({}, ["Closes PROJ-1, PROJ-2 and #3", "Mentions PROJ-4", "fixes: PROJ-5"])).toEqual(["PROJ-1", "PROJ-2", "PROJ-5"]);
  });
  test("settings GitLab's model validates", () => {
    expect(jiraSettingsValid({ username: "u", jira_auth_type: 0 })).toBe(true);
    expect(jiraSettingsValid({ jira_auth_type: 0 })).toBe(false);
    expect(jiraSettingsValid({ jira_auth_type: 1 })).toBe(true);
    expect(jiraSettingsValid({ jira_auth_type: 2 })).toBe(false);
    expect(jiraSettingsValid({ jira_auth_type: 1, jira_issue_regex: "(a" })).toBe(false);
    expect(jiraSettingsValid({ jira_auth_type: 1, jira_issue_regex: "(?=x)" })).toBe(false);
    expect(jiraSettingsValid({ jira_auth_type: 1, jira_issue_transition_id: "abc" })).toBe(false);
    expect(jiraSettingsValid({ jira_auth_type: 1, jira_issue_transition_id: "11, 21;31" })).toBe(true);
  });
});

describe("Jira requests", () => {
  test("Basic with the username trimmed, or Bearer with a personal access token", () => {
    expect(authHeaders({ username: " ann " }, "pw")).toEqual({ authorization: `Basic ${Buffer.from("ann:pw").toString("base64")}`, cookie: "OBBasicAuth=fromDialog" });
    expect(authHeaders({ jira_auth_type: 1, username: "ann" }, "pat")).toEqual({ authorization: "Bearer pat" });
  });

  test("a mention: the issue is looked up, then the comment and the remote link are posted on its id", async () => {
    const jira = fakeJira({ "PROJ-1": { id: "10001" } });
    await deliverToJira(jira.call, {}, true, message({ mentions: [{ key: "PROJ-1", entity: mr, gate: "merge_requests_events" }, { key: "NOPE-1", entity: mr, gate: null }] }));
    expect(commentBody(message(), mr)).toBe("[Ann|http://h/ann] mentioned this issue in [a merge request|http://h/team/app/-/merge_requests/3] of [team/app|http://h/team/app] on branch [fix|http://h/team/app/-/tree/fix]:{quote}Fix totals{quote}");
    expect(jira.calls).toEqual([
      { method: "GET", path: "/rest/api/2/issue/PROJ-1" },
      { method: "GET", path: "/rest/api/2/issue/10001/remotelink" },
      { method: "POST", path: "/rest/api/2/issue/10001/comment", body: { body: commentBody(message(), mr) } },
      {
        method: "POST",
        path: "/rest/api/2/issue/10001/remotelink",
        body: { GlobalID: "GitLab", relationship: "mentioned on", object: { url: mr.url, title: "Merge request - Fix totals", status: { resolved: false }, icon: { title: "GitLab", url16x16: "http://h/favicon.ico" } } },
      },
      { method: "GET", path: "/rest/api/2/issue/NOPE-1" },
    ]);
  });

  test("already commented: nothing more; already linked: the link is updated, no second comment; comments off: the link only", async () => {
    const commented = fakeJira({ "PROJ-1": { id: "1", comments: [`earlier: ${commentBody(message(), mr)}`] } });
    await deliverToJira(commented.call, {}, true, message({ mentions: [{ key: "PROJ-1", entity: mr, gate: null }] }));
    expect(commented.calls.map((c) => c.method)).toEqual(["GET"]);
    const linked = fakeJira({ "PROJ-1": { id: "1", links: [{ id: 77, object: { url: mr.url } }] } });
    await deliverToJira(linked.call, {}, true, message({ mentions: [{ key: "PROJ-1", entity: mr, gate: null }] }));
    expect(linked.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /rest/api/2/issue/PROJ-1", "GET /rest/api/2/issue/1/remotelink", "PUT /rest/api/2/issue/1/remotelink/77"]);
    const quiet = fakeJira({ "PROJ-1": { id: "1" } });
    await deliverToJira(quiet.call, {}, false, message({ mentions: [{ key: "PROJ-1", entity: mr, gate: null }] }));
    expect(quiet.calls.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /rest/api/2/issue/PROJ-1", "GET /rest/api/2/issue/1/remotelink", "POST /rest/api/2/issue/1/remotelink"]);
  });

  test("closing: the automatic transition to a done status, then the solved comment and a resolved link", async () => {
    const jira = fakeJira({ "PROJ-1": { id: "1", transitions: [{ id: "11", to: { statusCategory: { key: "indeterminate" } } }, { id: "31", to: { statusCategory: { key: "done" } } }] } });
    const close = { key: "PROJ-1", commitId: "abc123", commitUrl: "http://h/team/app/-/commit/abc123" };
    await deliverToJira(jira.call, { jira_issue_transition_automatic: true }, true, message({ closes: [close] }));
    expect(jira.calls).toEqual([
      { method: "GET", path: "/rest/api/2/issue/PROJ-1?expand=transitions" },
      { method: "POST", path: "/rest/api/2/issue/1/transitions", body: { transition: { id: "31" } } },
      { method: "GET", path: "/rest/api/2/issue/PROJ-1" },
      { method: "GET", path: "/rest/api/2/issue/1/remotelink" },
      { method: "POST", path: "/rest/api/2/issue/1/comment", body: { body: "Issue solved with [abc123|http://h/team/app/-/commit/abc123]." } },
      { method: "POST", path: "/rest/api/2/issue/1/remotelink", body: expect.objectContaining({ object: expect.objectContaining({ url: close.commitUrl, title: "Solved by commit abc123.", status: { resolved: true } }) }) },
    ]);
  });

  test("closing with transition ids: each in order; without any transition set nothing is asked; a resolved issue is left", async () => {
    const close = { key: "PROJ-1", commitId: "abc", commitUrl: "http://h/c" };
    const jira = fakeJira({ "PROJ-1": { id: "1" } });
    await deliverToJira(jira.call, { jira_issue_transition_id: "11;21" }, true, message({ closes: [close] }));
    expect(jira.calls.filter((c) => c.path.endsWith("/transitions")).map((c) => c.body)).toEqual([{ transition: { id: "11" } }, { transition: { id: "21" } }]);
    const idle = fakeJira({ "PROJ-1": { id: "1" } });
    await deliverToJira(idle.call, {}, true, message({ closes: [close] }));
    expect(idle.calls).toEqual([]);
    const done = fakeJira({ "PROJ-1": { id: "1", resolution: { name: "Done" } } });
    await deliverToJira(done.call, { jira_issue_transition_id: "11" }, true, message({ closes: [close] }));
    expect(done.calls).toEqual([{ method: "GET", path: "/rest/api/2/issue/PROJ-1" }]);
  });

  test("what a message comes to: mentions their flags allow, closings only when issues are transitioned", () => {
    const m = message({ mentions: [{ key: "A-1", entity: mr, gate: "merge_requests_events" }, { key: "B-1", entity: mr, gate: null }], closes: [{ key: "A-1", commitId: "c", commitUrl: "u" }] });
    expect(applicable(m, { merge_requests_events: false }, {})).toMatchObject({ mentions: [{ key: "B-1" }], closes: [] });
    expect(applicable(m, { merge_requests_events: true }, { jira_issue_transition_id: "5" })).toMatchObject({ mentions: [{ key: "A-1" }, { key: "B-1" }], closes: [{ key: "A-1" }] });
  });

  test("a refused call (401, 5xx) fails the delivery with its status", async () => {
    const jira = fakeJira({ "PROJ-1": { id: "1" } }, { path: /remotelink/, status: 503 });
    await expect(deliverToJira(jira.call, {}, true, message({ mentions: [{ key: "PROJ-1", entity: mr, gate: null }] }))).rejects.toMatchObject({ status: 503 });
    const denied = fakeJira({}, { path: /issue/, status: 401 });
    await expect(deliverToJira(denied.call, {}, true, message({ mentions: [{ key: "PROJ-1", entity: mr, gate: null }] }))).rejects.toBeInstanceOf(JiraError);
  });
});
