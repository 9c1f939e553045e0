import type { ApiClient, TestApp } from "@collab/testing";
import { sql } from "drizzle-orm";

export interface CreatedMergeRequest {
  id: number;
  iid: number;
  sha: string;
  project_id: number;
}

/**
 * A merge request for approval tests. Through `POST /projects/:id/merge_requests` when that route
 * exists; until the merge requests core is merged it does not (the catch-all 404), and the row is
 * inserted directly into merge_requests.merge_requests with the source branch's head as sha.
 * The source branch must exist (POST /projects/:id/repository/branches).
 */
export async function createMergeRequest(
  app: Pick<TestApp, "database">,
  api: ApiClient,
  projectId: number,
  mr: { title: string; source_branch: string; target_branch: string },
): Promise<CreatedMergeRequest> {
  const res = await api.post(`/projects/${projectId}/merge_requests`, { json: mr });
  if (res.status === 201) return { id: res.body.id, iid: res.body.iid, sha: res.body.sha, project_id: res.body.project_id };
  if (res.status !== 404 || res.body?.error !== "404 Not Found") throw new Error(`create merge request: ${res.status} ${res.text}`);
  return insertMergeRequest(app, api, projectId, mr);
}

/** INTERIM (until the core's create route lands): the row written directly. */
async function insertMergeRequest(app: Pick<TestApp, "database">, api: ApiClient, projectId: number, mr: { title: string; source_branch: string; target_branch: string }) {
  const me = (await api.get("/user")).body as { id: number };
  const branch = await api.get(`/projects/${projectId}/repository/branches/${encodeURIComponent(mr.source_branch)}`);
  if (branch.status !== 200) throw new Error(`source branch ${mr.source_branch}: ${branch.status} ${branch.text}`);
  const sha = branch.body.commit.id as string;
  const result = await app.database.db.execute(sql`
    INSERT INTO merge_requests.merge_requests (project_id, source_project_id, iid, title, author_id, source_branch, target_branch, sha)
    VALUES (${projectId}, ${projectId}, (SELECT coalesce(max(iid), 0) + 1 FROM merge_requests.merge_requests WHERE project_id = ${projectId}),
      ${mr.title}, ${me.id}, ${mr.source_branch}, ${mr.target_branch}, ${sha})
    RETURNING id, iid`);
  const row = (result as unknown as { rows: { id: number; iid: number }[] }).rows[0];
  return { id: row.id, iid: row.iid, sha, project_id: projectId };
}
