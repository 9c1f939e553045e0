import { ciActsOn, ciRequest, type CiMessage } from "./ci";

const ZERO = "0".repeat(40);
const push = (over: Partial<CiMessage["data"]> = {}): CiMessage => ({
  event: "Push Hook",
  data: { object_kind: "push", ref: "refs/heads/feature/x", after: "a".repeat(40), total_commits_count: 2, project: { path_with_namespace: "team/sub/app" }, ...over },
});
const mr = (state: string | null, action: string): CiMessage => ({
  event: "Merge Request Hook",
  data: { object_kind: "merge_request", object_attributes: { source_branch: "fix & <go>", state, action } },
});
const secrets = (values: Record<string, string>) => (name: string) => values[name] ?? "";

describe("build server triggers", () => {
  test("which payloads each server acts on (GitLab's supported_events and push data validations)", () => {
    expect(ciActsOn("bamboo", mr("opened", "open").data)).toBe(false);
    expect(ciActsOn("bamboo", push({ after: ZERO }).data)).toBe(true);
    expect(ciActsOn("teamcity", push({ object_kind: "tag_push" }).data)).toBe(false);
    expect(ciActsOn("teamcity", push({ after: ZERO }).data)).toBe(false);
    expect(ciActsOn("drone-ci", push({ total_commits_count: 0 }).data)).toBe(false);
    expect(ciActsOn("drone-ci", mr("closed", "close").data)).toBe(false);
    expect(ciActsOn("drone-ci", mr(null, "reopen").data)).toBe(true);
    expect(ciActsOn("jenkins", mr("closed", "close").data)).toBe(true);
  });

  test("Buildkite: the webhook part of the token, on Buildkite's endpoint", () => {
    const req = ciRequest("buildkite", { project_url: "https://buildkite.com/acme/app", enable_ssl_verification: false }, secrets({ token: "hook:status" }), push());
    expect(req).toMatchObject({ url: "https://webhook.buildkite.com/deliver/hook", method: "POST", verifyTls: true, headers: { "X-Gitlab-Event": "Push Hook" } });
    expect(JSON.parse(req.body!.data)).toMatchObject({ object_kind: "push" });
  });

  test("TeamCity: a merge request builds its source branch, XML-escaped; no credentials, no authorization", () => {
    const req = ciRequest("teamcity", { teamcity_url: "https://tc.example.com/", build_type: "B" }, secrets({}), mr("opened", "open"));
    expect(req).toMatchObject({ url: "https://tc.example.com/httpAuth/app/rest/buildQueue", headers: {} });
    expect(req.body!.data).toBe('<build branchName="fix &amp; &lt;go&gt;"><buildType id="B"/></build>');
  });

  test("Drone: owner is the namespace's full path; Bamboo without credentials leaves os_authType out", () => {
    expect(ciRequest("drone-ci", { drone_url: "https://drone.example.com" }, secrets({ token: "t&1" }), push()).url).toBe("https://drone.example.com/hook?owner=team%2Fsub&name=app&access_token=t%261");
    expect(ciRequest("bamboo", { ci_server_url: "https://b.example.com", build_key: "K" }, secrets({}), push())).toMatchObject({ url: "https://b.example.com/updateAndBuild.action?buildKey=K", method: "GET", headers: {} });
  });
});
