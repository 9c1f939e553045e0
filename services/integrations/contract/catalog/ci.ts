import { optional, required, secret, SSL_VERIFICATION, type KindDef } from "./fields";

/** Build servers and CI services: triggered on pushes (and merge requests where GitLab does), see src/deliveries/ci. */
export const CI_KINDS: readonly KindDef[] = [
  {
    slug: "bamboo",
    title: "Atlassian Bamboo",
    fields: [
      { name: "ci_server_url", type: "url", required: true },
      SSL_VERIFICATION,
      required("build_key"),
      required("username"),
      secret("password"),
    ],
    events: [],
  },
  {
    slug: "buildkite",
    title: "Buildkite",
    fields: [
      secret("token"),
      { name: "project_url", type: "url", required: true },
      // Deprecated in GitLab and without effect: accepted and shown, never acted on.
      SSL_VERIFICATION,
    ],
    events: ["push_events", "merge_requests_events", "tag_push_events"],
  },
  {
    slug: "drone-ci",
    title: "Drone",
    fields: [{ name: "drone_url", type: "url", required: true }, secret("token"), SSL_VERIFICATION],
    events: ["push_events", "merge_requests_events", "tag_push_events"],
  },
  {
    slug: "jenkins",
    title: "Jenkins",
    fields: [{ name: "jenkins_url", type: "url", required: true }, SSL_VERIFICATION, required("project_name"), optional("username"), { name: "password", type: "string", secret: true }],
    events: ["push_events", "merge_requests_events", "tag_push_events"],
    projectOnly: true,
  },
  {
    slug: "teamcity",
    title: "JetBrains TeamCity",
    fields: [{ name: "teamcity_url", type: "url", required: true }, SSL_VERIFICATION, required("build_type"), optional("username"), { name: "password", type: "string", secret: true }],
    events: ["push_events", "merge_requests_events"],
  },
  {
    slug: "mock-ci",
    title: "MockCI",
    fields: [{ name: "mock_service_url", type: "url", required: true }, SSL_VERIFICATION],
    events: [],
  },
];
