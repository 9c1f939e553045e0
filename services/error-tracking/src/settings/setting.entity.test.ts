import { presentClientKey } from "../client-keys/client-key.entity";
import { presentSetting, trackerExternalUrl } from "./setting.entity";

const at = new Date("2024-01-01T00:00:00Z");

describe("presentSetting", () => {
  test("GitLab's fields under the spec's neutral name for the external URL", () => {
    expect(presentSetting({ projectId: 7, enabled: true, integrated: true, apiUrl: null, projectName: null, createdAt: at, updatedAt: at })).toEqual({
      active: true,
      project_name: null,
      tracker_external_url: null,
      api_url: null,
      integrated: true,
    });
  });

  test("an external tracker's page derives from its API URL", () => {
    expect(trackerExternalUrl("https://tracker.example.com/api/0/projects/acme/shop/")).toBe("https://tracker.example.com/acme/shop");
    expect(presentSetting({ projectId: 7, enabled: false, integrated: false, apiUrl: "https://t.example/api/0/projects/o/p/", projectName: "p", createdAt: at, updatedAt: at })).toMatchObject({
      active: false,
      project_name: "p",
      tracker_external_url: "https://t.example/o/p",
      integrated: false,
    });
  });
});

describe("presentClientKey", () => {
  const row = { id: 3, projectId: 42, active: true, publicKey: "glet_abc", createdAt: at };

  test("id, active, public key and the DSN SDKs are configured from", () => {
    expect(presentClientKey("https://collab.example.com", row)).toEqual({ id: 3, active: true, public_key: "glet_abc", sentry_dsn: "https://glet_abc@collab.example.com/api/v4/error_tracking/collector/42" });
  });

  test("the DSN keeps the base URL's port and relative root", () => {
    expect(presentClientKey("http://localhost:3000/gitlab/", row).sentry_dsn).toBe("http://glet_abc@localhost:3000/gitlab/api/v4/error_tracking/collector/42");
  });
});
