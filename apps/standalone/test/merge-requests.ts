import type { ApiClient } from "@collab/testing";

export interface CreatedMergeRequest {
  id: number;
  iid: number;
  sha: string;
  project_id: number;
}

/**
 * A merge request through `POST /projects/:id/merge_requests`, by the client's user. The source
 * branch must exist (POST /projects/:id/repository/branches).
 */
export async function createMergeRequest(
  api: ApiClient,
  projectId: number,
  mr: { title: string; source_branch: string; target_branch: string },
): Promise<CreatedMergeRequest> {
  const res = await api.post(`/projects/${projectId}/merge_requests`, { json: mr });
  if (res.status !== 201) throw new Error(`create merge request: ${res.status} ${res.text}`);
  return { id: res.body.id, iid: res.body.iid, sha: res.body.sha, project_id: res.body.project_id };
}
