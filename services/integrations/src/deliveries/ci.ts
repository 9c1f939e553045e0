import { externalUrl } from "@collab/core";
import { GITLAB_VERSION } from "../hooks/execute";
import type { OutboundRequest } from "./post";

/**
 * Build servers triggered the way GitLab's integrations trigger them (app/models/integrations/*.rb):
 * Jenkins, Drone and Buildkite receive the webhook payload of the push, tag push or merge request
 * (GitLab's ServiceHook); TeamCity gets a build queued through its REST API; Bamboo a plan run
 * through updateAndBuild.action. The request is built when it is sent, from the integration's
 * settings and secrets (never stored with the delivery).
 */
export const CI_SLUGS = ["jenkins", "drone-ci", "buildkite", "teamcity", "bamboo"] as const;
export type CiSlug = (typeof CI_SLUGS)[number];
export const isCiSlug = (slug: string): slug is CiSlug => (CI_SLUGS as readonly string[]).includes(slug);

/** The hook payload kinds each build server acts on (GitLab's supported_events). */
const SUPPORTED: Record<CiSlug, string[]> = {
  jenkins: ["push", "merge_request", "tag_push"],
  "drone-ci": ["push", "merge_request", "tag_push"],
  buildkite: ["push", "merge_request", "tag_push"],
  teamcity: ["push", "merge_request"],
  bamboo: ["push"],
};

/** The buildkite webhook endpoint (GitLab's is fixed; overridable for a local Buildkite agent relay). */
const buildkiteEndpoint = () => process.env.INTEGRATIONS_BUILDKITE_WEBHOOK_URL ?? "https://webhook.buildkite.com";

const ZERO = "0".repeat(40);

export interface HookData {
  object_kind: string;
  ref?: string;
  after?: string;
  total_commits_count?: number;
  object_attributes?: { source_branch?: string | null; state?: string | null; action?: string };
  project?: { path_with_namespace?: string };
}

/** What a delivery row keeps: the hook payload and its X-Gitlab-Event name. */
export interface CiMessage {
  event: string;
  data: HookData & Record<string, unknown>;
}

/** GitLab's ServicePushDataValidations: a push with commits to a branch still there; an open merge request. */
const pushValid = (d: HookData) => (d.total_commits_count ?? 0) > 0 && d.after !== ZERO;
const mergeRequestValid = (d: HookData) => {
  const a = d.object_attributes;
  return a?.state ? a.state === "opened" : ["open", "reopen", "update"].includes(a?.action ?? "");
};

/** Whether the build server acts on this payload at all (the delivery is dropped otherwise). */
export function ciActsOn(slug: CiSlug, d: HookData): boolean {
  if (!SUPPORTED[slug].includes(d.object_kind)) return false;
  if (slug === "drone-ci" || slug === "teamcity") {
    if (d.object_kind === "push") return pushValid(d);
    if (d.object_kind === "merge_request") return mergeRequestValid(d);
    return d.after !== ZERO;
  }
  return true;
}

export interface CiRequest extends OutboundRequest {
  url: string;
  headers: Record<string, string>;
  verifyTls: boolean;
}

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
const join = (base: string, path: string) => `${base.replace(/\/+$/, "")}/${path}`;
const xmlAttr = (s: string) => `"${s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")}"`;
const refName = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, "");

/** GitLab's ServiceHook request: the payload as a webhook would get it. */
const serviceHook = (url: string, message: CiMessage, verifyTls: boolean, auth?: string): CiRequest => ({
  url,
  method: "POST",
  body: { contentType: "application/json", data: JSON.stringify(message.data) },
  headers: {
    "User-Agent": `GitLab/${GITLAB_VERSION}`,
    "X-Gitlab-Event": message.event,
    "X-Gitlab-Instance": externalUrl(),
    ...(auth ? { Authorization: auth } : {}),
  },
  verifyTls,
});

/**
 * The request that triggers the build server for one payload. `props` are the integration's
 * settings, `secret` opens one of its secrets.
 */
export function ciRequest(slug: CiSlug, props: Record<string, unknown>, secret: (name: string) => string, message: CiMessage): CiRequest {
  const str = (name: string) => (typeof props[name] === "string" ? (props[name] as string) : "");
  const verifyTls = props.enable_ssl_verification !== false;
  switch (slug) {
    case "jenkins": {
      // GitLab puts the credentials in the URL's userinfo; sent as Basic authorization.
      const url = join(str("jenkins_url"), `project/${str("project_name")}`);
      const user = str("username");
      const password = secret("password");
      return serviceHook(url, message, verifyTls, user || password ? basic(user, password) : undefined);
    }
    case "drone-ci": {
      const path = message.data.project?.path_with_namespace ?? "";
      const cut = path.lastIndexOf("/");
      const query = new URLSearchParams({ owner: path.slice(0, cut), name: path.slice(cut + 1), access_token: secret("token") });
      return serviceHook(`${join(str("drone_url"), "hook")}?${query}`, message, verifyTls);
    }
    case "buildkite": {
      const webhookToken = secret("token").split(":")[0];
      // Buildkite's own endpoint: enable_ssl_verification is deprecated there and ignored.
      return serviceHook(join(buildkiteEndpoint(), `deliver/${encodeURIComponent(webhookToken)}`), message, true);
    }
    case "teamcity": {
      const d = message.data;
      const branch = d.object_kind === "merge_request" ? (d.object_attributes?.source_branch ?? "") : refName(d.ref ?? "");
      const user = str("username");
      const password = secret("password");
      return {
        url: join(str("teamcity_url"), "httpAuth/app/rest/buildQueue"),
        method: "POST",
        body: { contentType: "application/xml", data: `<build branchName=${xmlAttr(branch)}><buildType id=${xmlAttr(str("build_type"))}/></build>` },
        headers: user || password ? { Authorization: basic(user, password) } : {},
        verifyTls,
      };
    }
    case "bamboo": {
      const user = str("username");
      const password = secret("password");
      const query = new URLSearchParams({ buildKey: str("build_key") });
      if (user || password) query.set("os_authType", "basic");
      return { url: `${join(str("ci_server_url"), "updateAndBuild.action")}?${query}`, method: "GET", headers: user || password ? { Authorization: basic(user, password) } : {}, verifyTls };
    }
  }
}
