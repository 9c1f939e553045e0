// The clone scenario's repository: a project `acme/clone-bench` created through the API (so the
// namespaces and repositories services make its record and its bare repository on the storage
// they pick), then a few thousand commits written into that repository's folder with
// `git fast-import` (shared/git's generateHistory). The folder is the repositories service's own
// rule: its record's storage and disk path (GitLab's hashed path), resolved against the folder
// the mode's REPOSITORY_STORAGES gives that storage.
"use strict";
const path = require("node:path");

const ROOT = path.join(__dirname, "..");
const CLONE_PROJECT = "clone-bench";
/** Commits of the generated history, over 50 files (a ~1 MB pack). */
const CLONE_COMMITS = Number(process.env.BENCH_CLONE_COMMITS ?? 3000);

/** REPOSITORY_STORAGES (`name:/folder,…`) as a Map. */
const parseStorages = (value) => new Map(value.split(",").map((pair) => [pair.slice(0, pair.indexOf(":")), pair.slice(pair.indexOf(":") + 1)]));

/**
 * Creates `acme/<CLONE_PROJECT>` on a running mode (`url`, as root), fills its repository with
 * CLONE_COMMITS commits and answers where it is: `{ fullPath, storageFolder, diskPath, head }`.
 */
async function prepareCloneRepository({ url, rootToken, groupId, databaseUrl, storages }) {
  const res = await fetch(`${url}/api/v4/projects`, {
    method: "POST",
    headers: { "PRIVATE-TOKEN": rootToken, "Content-Type": "application/json" },
    body: JSON.stringify({ name: CLONE_PROJECT, path: CLONE_PROJECT, namespace_id: groupId, visibility: "private" }),
  });
  if (res.status !== 201) throw new Error(`creating ${CLONE_PROJECT}: ${res.status} ${await res.text()}`);
  const project = await res.json();
  const { Client } = require("pg");
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  let row;
  try {
    row = (await client.query(`SELECT storage, disk_path FROM repositories.repositories WHERE container_kind = 'project' AND container_id = $1`, [project.id])).rows[0];
  } finally {
    await client.end();
  }
  if (!row) throw new Error(`${CLONE_PROJECT} has no repository record`);
  const storageFolder = parseStorages(storages).get(row.storage);
  if (!storageFolder) throw new Error(`storage ${row.storage} is not among ${storages}`);
  const { generateHistory } = require(path.join(ROOT, "shared/git/dist"));
  const head = await generateHistory(path.join(storageFolder, row.disk_path), { commits: CLONE_COMMITS });
  return { fullPath: project.path_with_namespace, storageFolder, diskPath: row.disk_path, head };
}

module.exports = { prepareCloneRepository, CLONE_COMMITS };
