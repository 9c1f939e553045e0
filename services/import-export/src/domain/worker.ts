import { call as callAction, currentSettings, viaBus, type BusCall, errorBodyOf, isUnanswered, type InputOf } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import type { Db } from "@collab/db";
import { ArchiveError, buildArchive, exportFilename, readArchive, type ExportGroup, type ExportLabel, type ExportMember, type ExportMilestone, type GroupAttributes, type ImportGroup } from "../archive/format";
import type { RestoreProgress } from "../db/schema";
import { claimExport, claimImport, endImport, failExport, finishExport, saveImportProgress, type ExportClaim, type Failure, type ImportClaim } from "./jobs";

export type Call = BusCall;

/** Records per bus call, both ways (namespaces caps them at 500 too). */
export const BATCH = 500;
/** …and bytes of JSON per restore call, far below NATS's max_payload. */
export const BATCH_BYTES = 1024 * 1024;
/** Inflated size an archive may never exceed, whatever max_decompressed_archive_size says: it is read in memory. */
export const HARD_DECOMPRESSED_LIMIT = 256 * 1024 * 1024;
/** Jobs of each kind one tick takes at most (the timer comes back for the rest). */
const PER_TICK = 20;

const MB = 1024 * 1024;
const setting = (name: string): number => {
  const v = currentSettings()[name];
  return typeof v === "number" && v >= 0 ? v : 0;
};

/** max_decompressed_archive_size (MB, 0 = unlimited), within the in-memory hard limit. */
export const decompressedLimit = () => {
  const mb = setting("max_decompressed_archive_size");
  return mb > 0 ? Math.min(mb * MB, HARD_DECOMPRESSED_LIMIT) : HARD_DECOMPRESSED_LIMIT;
};

export const messageOf = (err: unknown) => {
  const known = errorBodyOf(err);
  if (known) {
    const m = known.body.message ?? known.body.error;
    return typeof m === "string" ? m : JSON.stringify(m ?? known.body);
  }
  return err instanceof Error ? err.message : String(err);
};

/** A worker's bus call that got no answer (see `answered`). */
export class Unanswered extends Error {}

/**
 * The workers' bus: a call that fails without an answer (the service down, a timeout) throws
 * Unanswered, told apart from the job's own errors, so the job waits instead of failing.
 */
export const answered =
  (call: Call): Call =>
  async <T,>(action: string, params: object) => {
    try {
      return await call<T>(action, params);
    } catch (err) {
      throw isUnanswered(err) ? new Unanswered(`${action} got no answer: ${messageOf(err)}`) : err;
    }
  };

/** How a run that threw ends (see Failure): refusals (the model refused, the group is gone) and bad archives fail the job. */
export const failureOf = (err: unknown): Failure =>
  err instanceof Unanswered ? "unanswered" : err instanceof ArchiveError || (errorBodyOf(err)?.status ?? 500) < 500 ? "permanent" : "counted";

/** An archive's group attributes, checked against namespaces' vocabulary when read (attributesOf). */
type RestoredAttributes = InputOf<typeof Namespaces.groups.createOrUpdateFromAttributes>["attributes"];

// ---- export ----------------------------------------------------------------------------------

interface TreeGroup {
  id: number;
  parent_id: number | null;
  full_path: string;
  created_at: string | null;
  updated_at: string | null;
  attributes: GroupAttributes;
}

async function pages<T extends { id: number }>(call: Call, groupId: number, relation: InputOf<typeof Namespaces.groups.relationPage>["relation"]): Promise<T[]> {
  const out: T[] = [];
  for (let after = 0; ; ) {
    // The answer's rows are the relation's (one of the contract's three shapes): T names which.
    const page = (await callAction(viaBus(call), Namespaces.groups.relationPage, { group_id: groupId, relation, after, limit: BATCH })) as unknown as T[];
    out.push(...page);
    if (page.length < BATCH) return out;
    after = page[page.length - 1].id;
  }
}

/** Reads the group tree through namespaces and builds its archive. */
export async function buildExport(call: Call, groupId: number, at = new Date()): Promise<{ archive: Buffer; filename: string }> {
  const tree = await callAction(viaBus(call), Namespaces.groups.tree, { group_id: groupId });
  const groups: ExportGroup[] = [];
  for (const g of tree) {
    const members = (await pages<ExportMember & { username: string | null }>(call, g.id, "members")).filter((m): m is ExportMember => m.username !== null);
    groups.push({
      ...g,
      labels: await pages<ExportLabel>(call, g.id, "labels"),
      milestones: await pages<ExportMilestone>(call, g.id, "milestones"),
      members,
    });
  }
  return { archive: buildArchive(groups, at), filename: exportFilename(tree[0].full_path, at) };
}

async function runExport(db: Db, call: Call, claim: ExportClaim): Promise<void> {
  try {
    const { archive, filename } = await buildExport(call, claim.groupId);
    const max = setting("max_export_size");
    if (max > 0 && archive.length > max * MB) {
      await failExport(db, claim, `The archive exceeds the maximum export size of ${max} MB`, "permanent");
      return;
    }
    await finishExport(db, claim, archive, filename);
  } catch (err) {
    await failExport(db, claim, messageOf(err), failureOf(err));
  }
}

// ---- import ----------------------------------------------------------------------------------

/** Splits records into bus-sized batches: at most BATCH records and about BATCH_BYTES of JSON each. */
export function batches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = JSON.stringify(item).length;
    if (current.length && (current.length >= BATCH || bytes + size > BATCH_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length) out.push(current);
  return out;
}

interface RestoreCounts {
  labels: number;
  milestones: number;
  members: number;
  skipped: number;
}

/** The import's claim was taken over (re-queued, or reclaimed as stale): its worker stops and writes nothing more. */
export class ClaimLost extends Error {}

/**
 * A subgroup `path` of the group: the one a creating call made on an earlier run, whose answer was
 * lost. (The tree under the imported group is the import's own: it was created for it.)
 */
async function madeEarlier(call: Call, parentId: number, path: string | undefined): Promise<{ id: number } | undefined> {
  if (!path) return undefined;
  const tree = await callAction(viaBus(call), Namespaces.groups.tree, { group_id: parentId });
  return tree.find((t) => t.parent_id === parentId && t.full_path.toLowerCase().endsWith(`/${path.toLowerCase()}`));
}

/**
 * Restores an archive into the group the upload created: its settings, then each subgroup (parents
 * first) with its labels, milestones and — when the importer is an administrator — members,
 * matched by username (GitLab maps members for administrators only; the importer stays Owner).
 *
 * Resumable: the calls come in a fixed order, and `checkpoint` records each one done (with the
 * groups made and the counts), so a run after a failure or a dead worker starts from `saved`, and
 * only the one call that may or may not have gone through is made again: a settings update or a
 * batch of relations (records already there are refused by the model and counted as skipped) are
 * safe to repeat, and a subgroup made by the lost call is looked up rather than created twice.
 */
export async function restoreArchive(
  call: Call,
  claim: Pick<ImportClaim, "groupId" | "importerId" | "importerUsername" | "importerAdmin">,
  groups: ImportGroup[],
  saved: RestoreProgress | null,
  checkpoint: (progress: RestoreProgress) => Promise<void>,
): Promise<RestoreProgress["stats"]> {
  const importer = { id: claim.importerId, username: claim.importerUsername, admin: claim.importerAdmin };
  const progress: RestoreProgress = saved ? structuredClone(saved) : { calls: 0, ids: {}, stats: { groups: 0, labels: 0, milestones: 0, members: 0, skipped: 0 } };
  let index = 0;
  /** Makes the restore's next call unless an earlier run did (its results are in `progress`), then records it. */
  const step = async (run: (repeated: boolean) => Promise<void>) => {
    if (index < progress.calls) {
      index++;
      return;
    }
    await run(saved !== null && index === saved.calls);
    progress.calls = ++index;
    await checkpoint(progress);
  };
  for (const g of groups) {
    await step(async (repeated) => {
      const parentId = g.parent_id === null ? undefined : progress.ids[g.parent_id];
      const target =
        g.parent_id === null
          ? await callAction(viaBus(call), Namespaces.groups.createOrUpdateFromAttributes, { importer, group_id: claim.groupId, attributes: g.attributes as RestoredAttributes })
          : ((repeated && parentId !== undefined ? await madeEarlier(call, parentId, g.attributes.path) : undefined) ??
            (await callAction(viaBus(call), Namespaces.groups.createOrUpdateFromAttributes, { importer, parent_id: parentId, attributes: g.attributes as RestoredAttributes })));
      progress.ids[g.id] = target.id;
      if (g.parent_id !== null) progress.stats.groups++;
      if (!importer.admin) progress.stats.skipped += g.members.length;
    });
    const members = importer.admin ? g.members : [];
    for (const [key, list] of [["labels", g.labels], ["milestones", g.milestones], ["members", members]] as const) {
      for (const batch of batches<unknown>(list)) {
        await step(async () => {
          const counts = await callAction(viaBus(call), Namespaces.groups.addRelations, { group_id: progress.ids[g.id], importer, [key]: batch });
          progress.stats.labels += counts.labels;
          progress.stats.milestones += counts.milestones;
          progress.stats.members += counts.members;
          progress.stats.skipped += counts.skipped;
        });
      }
    }
  }
  return progress.stats;
}

async function runImport(db: Db, call: Call, claim: ImportClaim): Promise<void> {
  try {
    if (!claim.archive) throw new ArchiveError("The uploaded archive is gone");
    const groups = readArchive(claim.archive, { maxBytes: decompressedLimit() });
    const statistics = await restoreArchive(call, claim, groups, claim.progress, async (progress) => {
      if (!(await saveImportProgress(db, claim, progress))) throw new ClaimLost("the import was claimed again");
    });
    await endImport(db, claim, { statistics });
  } catch (err) {
    if (err instanceof ClaimLost) return;
    await endImport(db, claim, { error: messageOf(err), failure: failureOf(err) });
  }
}

// ---- the worker step -------------------------------------------------------------------------

/**
 * One worker step: every queued export, then every queued import (up to PER_TICK of each), one at
 * a time. The timer of each replica and the `import-export.worker.tick` action both run it.
 */
export async function tick(db: Db, call: Call): Promise<{ exports: number; imports: number }> {
  const bus = answered(call);
  const exported: number[] = [];
  const imported: number[] = [];
  for (let claim = await claimExport(db); claim; claim = exported.length < PER_TICK ? await claimExport(db, exported) : undefined) {
    await runExport(db, bus, claim);
    exported.push(claim.id);
  }
  for (let claim = await claimImport(db); claim; claim = imported.length < PER_TICK ? await claimImport(db, imported) : undefined) {
    await runImport(db, bus, claim);
    imported.push(claim.id);
  }
  return { exports: exported.length, imports: imported.length };
}
