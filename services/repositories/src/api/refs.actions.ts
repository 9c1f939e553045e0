import { Accounts } from "@collab/accounts-contract";
import { actionsOf, badRequestMessage, call, notFound, page, reply, requireCaller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import {
  branchTarget,
  createBranch,
  createTag,
  deleteBranch,
  deleteTag,
  findBranch,
  findTag,
  getDefaultBranch,
  isValidRefName,
  listBranches,
  listTags,
  mergedBranchNames,
  resolveCommit,
  type PushedRef,
} from "@collab/git";
import { Namespaces } from "@collab/namespaces-contract";
import { Repositories, ZERO_SHA } from "@collab/repositories-contract";
import type { ActionSchema } from "moleculer";
import { pushDenial } from "../domain/git-access";
import { asApiError } from "../domain/repositories";
import type { LocalStorages } from "../domain/storages";
import { pushAnnouncements } from "../push/push-events";
import { apiBranchDenial, BRANCH_PREFIX, TAG_PREFIX } from "../push/ref-checks";
import { presentBranch, presentTag, type BranchPage, type BranchRule } from "../refs/refs.entity";
import { onProjectRepository, type ProjectRepository } from "./project-repository";

const byId = (p: { id: string }) => p.id;

/** The branches' protections, in one namespaces call (the default branch's protection applied first). */
async function rulesOf(ctx: Ctx<unknown>, repo: ProjectRepository, branches: string[]): Promise<Map<string, BranchRule>> {
  if (!branches.length) return new Map();
  const rules = await call(ctx, Namespaces.protectedBranches.pushRules, { project_id: repo.access.project.id, branches });
  return new Map(rules.map((r) => [r.branch, r]));
}

/** The project's default branch: namespaces' record, else the repository's HEAD (a repository just pushed to). */
async function defaultBranchOf(repo: ProjectRepository): Promise<string | null> {
  return repo.access.project.default_branch ?? (await getDefaultBranch(repo.dir));
}

/** What presenting a page of branches reads once: the default branch, what it contains, the protections. */
async function branchPage(ctx: Ctx<unknown>, repo: ProjectRepository, names: string[], known?: Map<string, BranchRule>): Promise<BranchPage> {
  const defaultBranch = await defaultBranchOf(repo);
  const defaultHead = defaultBranch ? await branchTarget(repo.dir, defaultBranch) : null;
  const [mergedIntoDefault, rules] = await Promise.all([defaultHead ? mergedBranchNames(repo.dir, defaultHead) : new Set<string>(), known ?? rulesOf(ctx, repo, names)]);
  const { project, role } = repo.access;
  return { projectWebUrl: project.web_url, defaultBranch, defaultHead, mergedIntoDefault, rules, role, mayPushCode: pushDenial(repo.caller, project, role) === null };
}

/**
 * A ref the API moved, announced as a push of it (`repositories.branch.pushed` / `tag.pushed`,
 * the same builder as git's pushes), written to the outbox once the ref has moved.
 */
async function announce(kit: ServiceKit, ctx: Ctx<unknown>, repo: ProjectRepository, update: PushedRef): Promise<void> {
  const caller = requireCaller(ctx);
  const events = await pushAnnouncements(repo.dir, [update], repo.access.project, { id: caller.id, username: caller.username }, kit.baseUrl);
  if (events.length) await kit.events.transact(async () => undefined, () => events);
}

/** Deletes a branch the API may delete (checked by the caller) and announces it. */
async function removeBranch(kit: ServiceKit, ctx: Ctx<unknown>, repo: ProjectRepository, name: string, head: string): Promise<void> {
  await deleteBranch(repo.dir, name, head).catch(asApiError);
  await announce(kit, ctx, repo, { ref: BRANCH_PREFIX + name, oldSha: head, newSha: ZERO_SHA });
}

/** GitLab's branches and tags API on the project's repository (lib/api/branches.rb, tags.rb). */
export const refsActions = (kit: ServiceKit, storages: LocalStorages): Record<string, ActionSchema> =>
  actionsOf("repositories", [
    onProjectRepository(kit, storages, Repositories.refs.listBranches, { project: byId, need: "read" }, async (ctx, repo) => {
      const p = ctx.params;
      const { items, total } = await listBranches(repo.dir, {
        search: p.search,
        orderBy: p.sort === "name_asc" ? "name" : "updated",
        sort: p.sort === "updated_desc" ? "desc" : "asc",
        page: p.page,
        perPage: p.per_page,
      });
      const context = await branchPage(ctx, repo, items.map((b) => b.name));
      return page(items.map((b) => presentBranch(b, context)), total, p);
    }),

    onProjectRepository(kit, storages, Repositories.refs.getBranch, { project: byId, need: "read" }, async (ctx, repo) => {
      const branch = await findBranch(repo.dir, ctx.params.branch);
      if (!branch) throw notFound("Branch");
      return presentBranch(branch, await branchPage(ctx, repo, [branch.name]));
    }),

    /** GitLab's CreateBranchService order: the name, an existing branch, the ref, then the branch checks. */
    onProjectRepository(kit, storages, Repositories.refs.createBranch, { project: byId, need: "write" }, async (ctx, repo) => {
      const { branch: name, ref } = ctx.params;
      if (!(await isValidRefName(repo.dir, name))) throw badRequestMessage("Branch name is invalid");
      if (await branchTarget(repo.dir, name)) throw badRequestMessage("Branch already exists");
      if (!(await resolveCommit(repo.dir, ref))) throw badRequestMessage(`Invalid reference name: ${ref}`);
      const rules = await rulesOf(ctx, repo, [name]);
      const denial = apiBranchDenial("create", name, { defaultBranch: await defaultBranchOf(repo), role: repo.access.role, protection: rules.get(name)! });
      if (denial) throw badRequestMessage(denial);
      const created = await createBranch(repo.dir, name, ref).catch(asApiError);
      await announce(kit, ctx, repo, { ref: BRANCH_PREFIX + name, oldSha: ZERO_SHA, newSha: created.commit.id });
      return presentBranch(created, await branchPage(ctx, repo, [name], rules));
    }),

    onProjectRepository(kit, storages, Repositories.refs.deleteBranch, { project: byId, need: "write" }, async (ctx, repo) => {
      const name = ctx.params.branch;
      const head = await branchTarget(repo.dir, name);
      if (!head) throw notFound("Branch");
      const rules = await rulesOf(ctx, repo, [name]);
      const denial = apiBranchDenial("delete", name, { defaultBranch: await defaultBranchOf(repo), role: repo.access.role, protection: rules.get(name)! });
      if (denial) throw badRequestMessage(denial);
      await removeBranch(kit, ctx, repo, name, head);
      return null;
    }),

    /** GitLab's DeleteMergedService: branches merged into the default one, neither it nor protected ones. */
    onProjectRepository(kit, storages, Repositories.refs.deleteMergedBranches, { project: byId, need: "write" }, async (ctx, repo) => {
      const defaultBranch = await defaultBranchOf(repo);
      const defaultHead = defaultBranch ? await branchTarget(repo.dir, defaultBranch) : null;
      if (defaultHead) {
        const { items } = await listBranches(repo.dir, { perPage: Number.MAX_SAFE_INTEGER });
        const merged = await mergedBranchNames(repo.dir, defaultHead);
        const candidates = items.filter((b) => b.name !== defaultBranch && merged.has(b.name) && b.commit.id !== defaultHead);
        const rules = await rulesOf(ctx, repo, candidates.map((b) => b.name));
        for (const b of candidates) if (!rules.get(b.name)?.protected) await removeBranch(kit, ctx, repo, b.name, b.commit.id);
      }
      return reply(202, { message: "202 Accepted" });
    }),

    onProjectRepository(kit, storages, Repositories.refs.listTags, { project: byId, need: "read" }, async (ctx, repo) => {
      const p = ctx.params;
      const { items, total } = await listTags(repo.dir, { search: p.search, orderBy: p.order_by, sort: p.sort, page: p.page, perPage: p.per_page });
      return page(items.map((t) => presentTag(t, repo.access.project.web_url)), total, p);
    }),

    onProjectRepository(kit, storages, Repositories.refs.getTag, { project: byId, need: "read" }, async (ctx, repo) => {
      const tag = await findTag(repo.dir, ctx.params.tag_name);
      if (!tag) throw notFound("Tag");
      return presentTag(tag, repo.access.project.web_url);
    }),

    /** Lightweight, or annotated by the caller (their name and commit email) when a message is given. */
    onProjectRepository(kit, storages, Repositories.refs.createTag, { project: byId, need: "write" }, async (ctx, repo) => {
      const { tag_name: name, ref, message } = ctx.params;
      const annotated = message !== undefined && message.trim() !== "";
      const tagger = annotated ? await call(ctx, Accounts.users.current, {}).then((u) => ({ name: u.name, email: u.commit_email })) : undefined;
      const tag = await createTag(repo.dir, name, ref, { message: annotated ? message : undefined, tagger }).catch(asApiError);
      await announce(kit, ctx, repo, { ref: TAG_PREFIX + name, oldSha: ZERO_SHA, newSha: tag.target });
      return presentTag(tag, repo.access.project.web_url);
    }),

    onProjectRepository(kit, storages, Repositories.refs.deleteTag, { project: byId, need: "write" }, async (ctx, repo) => {
      const name = ctx.params.tag_name;
      const tag = await findTag(repo.dir, name);
      if (!tag || !(await deleteTag(repo.dir, name).catch(asApiError))) throw notFound("Tag");
      await announce(kit, ctx, repo, { ref: TAG_PREFIX + name, oldSha: tag.target, newSha: ZERO_SHA });
      return null;
    }),
  ]);
