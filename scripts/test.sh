#!/usr/bin/env bash
# `npm test`: the whole test suite, in passes.
#
#   1. typecheck  npx tsc -b over the root tsconfig.json references (fails fast)
#   2. pglite     jest, unit + e2e projects, each e2e file on an in-memory PGlite
#   3. postgres   jest, e2e project again, against a PostgreSQL server this script starts on
#                 127.0.0.1 (a scratch database per test file, see shared/testing/src/app.ts)
#   4. distributed  jest, e2e again + *.dist.test.ts, each service its own process over nats-server
#                   and PostgreSQL, issues twice (scripts/topology.js, jest.distributed.config.js)
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
TOPOLOGY_VARS="TEST_GATEWAY_URL TEST_TRANSPORTER TEST_TOPOLOGY_DATABASE_URL TEST_TOPOLOGY_NODES TEST_TOPOLOGY_LOG_DIR TEST_MAIL_DIR"

PG_BIN=""
PG_ROOT="" # temp folder holding the data directory, socket and log of the test server
PG_PORT=""
PG_PID="" # our background child running the postmaster

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
  stop_postgres
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
# PostgreSQL test server

# Highest /usr/lib/postgresql/<major>/bin (Debian's layout; pg_config --bindir may point to a
# client-only or older install), then pg_config, then whatever initdb is on PATH.
find_pg_bin() {
  local dir major best="" best_major=-1
  for dir in /usr/lib/postgresql/*/bin; do
    major=${dir#/usr/lib/postgresql/}
    major=${major%/bin}
    [[ $major =~ ^[0-9]+$ ]] || continue
    [[ -x $dir/initdb && -x $dir/pg_ctl && -x $dir/postgres ]] || continue
    if ((major > best_major)); then
      best=$dir
      best_major=$major
    fi
  done
  if [[ -z $best ]] && command -v pg_config >/dev/null 2>&1; then
    dir=$(pg_config --bindir 2>/dev/null)
    [[ -x $dir/initdb && -x $dir/pg_ctl && -x $dir/postgres ]] && best=$dir
  fi
  if [[ -z $best ]] && command -v initdb >/dev/null 2>&1; then
    dir=$(dirname "$(readlink -f "$(command -v initdb)")")
    [[ -x $dir/pg_ctl && -x $dir/postgres ]] && best=$dir
  fi
  [[ -n $best ]] && echo "$best"
}

ensure_pg_bin() {
  PG_BIN=$(find_pg_bin) && return 0
  if ((EUID != 0)); then
    echo "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found, and installing them needs root." >&2
    echo "Install them (Debian/Ubuntu: sudo apt-get install -y postgresql) or run npm test as root." >&2
    return 1
  fi
  log "installing PostgreSQL with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq postgresql >&2 || {
    echo "apt-get install postgresql failed" >&2
    return 1
  }
  PG_BIN=$(find_pg_bin) || {
    echo "PostgreSQL installed but initdb/pg_ctl/postgres still not found under /usr/lib/postgresql/*/bin" >&2
    return 1
  }
}

# Chromium for the API reference page test (services/gateway/test/e2e/openapi.e2e.test.ts, driven
# by playwright-core, no browser download): installed with apt-get when missing and we are root.
# Without it that test fails with a message saying so; the other tests still run.
ensure_chromium() {
  command -v chromium >/dev/null 2>&1 && return 0
  if ((EUID != 0)); then
    echo "chromium not found, and installing it needs root (Debian/Ubuntu: sudo apt-get install -y chromium)" >&2
    return 1
  fi
  log "installing Chromium with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq chromium >&2 || {
    echo "apt-get install chromium failed" >&2
    return 1
  }
}

# Runs a PostgreSQL binary as the server's owner: `postgres` when we are root (initdb and
# postgres refuse to run as root), else ourselves. Runs from PG_ROOT so the cwd is readable.
as_pg_owner() {
  if ((EUID == 0)); then
    (cd "$PG_ROOT" && runuser -u postgres -- "$@")
  else
    (cd "$PG_ROOT" && "$@")
  fi
}

free_port() {
  node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

start_postgres() {
  ensure_pg_bin || return 1
  if ((EUID == 0)) && ! id -u postgres >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/bash postgres || return 1
  fi
  PG_ROOT=$(mktemp -d "${TMPDIR:-/tmp}/collab-pg.XXXXXX") || return 1
  ((EUID == 0)) && chown postgres: "$PG_ROOT"
  local data=$PG_ROOT/data
  log "starting PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') from $PG_BIN in $PG_ROOT"
  as_pg_owner "$PG_BIN/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-sync >"$PG_ROOT/initdb.log" 2>&1 || {
    cat "$PG_ROOT/initdb.log" >&2
    echo "initdb failed" >&2
    return 1
  }
  local attempt deadline
  for attempt in 1 2 3; do
    PG_PORT=$(free_port) || return 1
    # The postmaster runs as our background child, so we see at once if it exits (e.g. the port
    # was taken meanwhile) and then retry on another port. Durability is off: a throwaway server.
    # -k: its socket lives in the data folder.
    as_pg_owner "$PG_BIN/postgres" -D "$data" -h 127.0.0.1 -p "$PG_PORT" -k "$data" \
      -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
      >>"$PG_ROOT/postgres.log" 2>&1 </dev/null &
    PG_PID=$!
    deadline=$((SECONDS + 60))
    while ((SECONDS < deadline)) && kill -0 "$PG_PID" 2>/dev/null; do
      if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -t 1; then
        export TEST_DATABASE_SERVER="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
        return 0
      fi
      sleep 0.1 # poll interval, not a readiness guess
    done
    stop_postgres_server
    echo "PostgreSQL did not become ready on port $PG_PORT (attempt $attempt); its log:" >&2
    tail -n 20 "$PG_ROOT/postgres.log" >&2
  done
  return 1
}

stop_postgres_server() {
  if [[ -f $PG_ROOT/data/postmaster.pid ]]; then
    as_pg_owner "$PG_BIN/pg_ctl" -D "$PG_ROOT/data" -m immediate -t 30 stop >/dev/null 2>&1 ||
      kill -9 "$(head -n 1 "$PG_ROOT/data/postmaster.pid")" >/dev/null 2>&1
  fi
  [[ -n $PG_PID ]] || return 0
  local deadline=$((SECONDS + 10))
  while kill -0 "$PG_PID" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
  kill -9 "$PG_PID" >/dev/null 2>&1
  wait "$PG_PID" >/dev/null 2>&1 # reap it quietly
  PG_PID=""
}

# Idempotent and silent: runs from finish() and from the EXIT trap.
stop_postgres() {
  [[ -n $PG_ROOT && -d $PG_ROOT ]] || return 0
  stop_postgres_server
  rm -rf "$PG_ROOT"
  PG_ROOT=""
  unset TEST_DATABASE_SERVER
}

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

pglite_pass() {
  log "pass 'pglite': unit + e2e tests, in-memory PGlite"
  # No DATABASE_URL: a developer's own database must never be truncated by the tests.
  RUNS+=(pglite)
  (unset DATABASE_URL TEST_DATABASE_SERVER TRANSPORTER $TOPOLOGY_VARS && run_jest pglite "$@")
}

postgres_pass() {
  log "pass 'postgres': e2e tests against a PostgreSQL server"
  local started=$SECONDS
  if ! start_postgres; then
    echo "could not start the PostgreSQL test server: pass 'postgres' not run" >&2
    RUNS+=(postgres) # no report: counted as one failure
    stop_postgres
    return 1
  fi
  log "PostgreSQL ready at $TEST_DATABASE_SERVER after $((SECONDS - started))s"
  RUNS+=(postgres)
  # --selectProjects last: it takes a list and would swallow a test path given after it. A
  # filter that only matches unit tests leaves this pass empty, which is then no failure.
  local filtered=()
  (($# > 0)) && filtered=(--passWithNoTests)
  (unset DATABASE_URL TRANSPORTER $TOPOLOGY_VARS && run_jest postgres "${filtered[@]}" "$@" --selectProjects e2e)
  local status=$?
  stop_postgres
  return "$status"
}

# ---- distributed pass -------------------------------------------------------------------------
# The e2e suite once more, against every service in its own process over a real nats-server and
# PostgreSQL (issues twice), plus the distributed-only *.dist.test.ts files (a replica killed
# mid-burst). jest.distributed.config.js's globalSetup starts that topology (scripts/topology.js)
# from the built dist/, so this pass builds first. One worker: the files share one topology.
distributed_pass() {
  log "pass 'distributed': e2e tests against one process per service over nats-server"
  local started=$SECONDS
  RUNS+=(distributed)
  if ! npx --no-install tsc -b >&2; then
    echo "build failed: pass 'distributed' not run" >&2
    return 1
  fi
  if ! start_postgres; then
    echo "could not start the PostgreSQL test server: pass 'distributed' not run" >&2
    stop_postgres
    return 1
  fi
  log "PostgreSQL ready at $TEST_DATABASE_SERVER after $((SECONDS - started))s"
  local filtered=()
  (($# > 0)) && filtered=(--passWithNoTests)
  (unset DATABASE_URL TRANSPORTER $TOPOLOGY_VARS && JEST_WORKERS=1 run_jest distributed --config jest.distributed.config.js "${filtered[@]}" "$@")
  local status=$?
  stop_postgres
  return "$status"
}
# ----------------------------------------------------------------------------------------------

trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

typecheck_pass || exit 1 # fail fast: finish() prints the summary
ensure_chromium || true # the docs page test reports a missing browser itself
pglite_pass "$@"
postgres_pass "$@"
distributed_pass "$@"
exit 0 # finish() decides the real status from the reports
