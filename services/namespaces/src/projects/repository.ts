import { Accounts } from "@collab/accounts-contract";
import { call, type Ctx } from "@collab/core";
import { onStorage, Repositories } from "@collab/repositories-contract";
import type { NamespaceRow, ProjectRow } from "../db/schema";
import { projectWebUrl } from "./project.entity";

/**
 * The README.md of a project created with `initialize_with_readme`, in the shape of GitLab's
 * (the project's name as its title, its description, then how to start working with it).
 */
export function readmeContent(project: Pick<ProjectRow, "name" | "description" | "defaultBranch">, httpUrl: string): string {
  const branch = project.defaultBranch ?? "main";
  return [
    `# ${project.name}`,
    "",
    project.description ?? "",
    "",
    "## Getting started",
    "",
    "Clone the repository, commit your work and push it back:",
    "",
    "```",
    `git clone ${httpUrl}`,
    `git switch ${branch}`,
    `git push origin ${branch}`,
    "```",
    "",
  ].join("\n");
}

/**
 * Creates a new project's repository on its storage (the repositories replica serving it), with
 * a first commit of README.md on the default branch by the creator when the project asked for
 * one. Called inside the project's transaction: if the repository cannot be made, the project is
 * not either (GitLab's "Failed to create repository").
 */
export async function createProjectRepository(ctx: Ctx<unknown>, project: ProjectRow, ns: NamespaceRow, baseUrl: string): Promise<void> {
  let readme;
  if (!project.emptyRepo) {
    const creator = await call(ctx, Accounts.users.current, {});
    readme = {
      file_name: "README.md" as const,
      content: readmeContent(project, `${projectWebUrl(project, ns, baseUrl)}.git`),
      message: "Initial commit",
      author_name: creator.name,
      author_email: creator.commit_email,
    };
  }
  await call(
    ctx,
    Repositories.repositories.create,
    { container_kind: "project", container_id: project.id, storage: project.repositoryStorage, default_branch: project.defaultBranch ?? "main", ...(readme ? { readme } : {}) },
    onStorage(ctx, project.repositoryStorage),
  );
}
