#!/usr/bin/env bash
# Runs every test: the Swift suites, then Python gql (a real third-party AppSync client)
# against the built `deltasync` binary. Installs what a fresh machine lacks.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh

# The image's runtime root filesystem (scripts/image-rootfs.sh: a Debian of the image's release
# with docker/runtime.sh's packages and user), built in the background while Swift compiles; the
# image smoke suite (Tests/e2e/test_image.py) runs the staged server in it. Needs root (chroot).
ROOTFS="$PWD/.build/image-rootfs"
ROOTFS_LOG="$PWD/.build/image-rootfs.log"
rootfs_pid=""
if [ "$(id -u)" -eq 0 ] && command -v debootstrap >/dev/null; then
  mkdir -p .build
  bash scripts/image-rootfs.sh "$ROOTFS" > "$ROOTFS_LOG" 2>&1 &
  rootfs_pid=$!
else
  echo "(not root, or no debootstrap: the image smoke suite, Tests/e2e/test_image.py, will be skipped)"
fi

echo "== imports declared in Package.swift"
python3 scripts/check-imports.py
echo "== the client's documentation: every public declaration, every example current"
python3 scripts/check-doc-comments.py
python3 scripts/check-doc-examples.py --check
python3 scripts/check-sizes.py
python3 scripts/architecture-targets.py --check
echo "== the console page embedded in the binary is current"
python3 scripts/embed-console.py --check
echo "== the APPSYNC_JS worker embedded in the binary is current"
python3 scripts/embed-js-runtime.py --check
echo "== swift build"
swift build --build-tests --explicit-target-dependency-import-check error
echo "== swift test (PostgreSQL store tests on a throw-away cluster)"
PG_DIR=$(mktemp -d /tmp/deltasync-pg.XXXXXX)
trap 'bash scripts/postgres-cluster.sh stop "$PG_DIR"' EXIT
DELTASYNC_POSTGRES_URL=$(bash scripts/postgres-cluster.sh start "$PG_DIR")
export DELTASYNC_POSTGRES_URL
# Suites with tests tagged `.timing` run on their own afterwards: beside the parallel run on two
# cores, a timer can fire seconds late (timeouts shortened to fractions of a second), and
# RecoveryTests' 300 serial creates took 38-44 s in the parallel run against their 30 s wait (40 s
# at b02bd64 too), and 5 s beside only the other end-to-end suites.
# Heavy and measuring server tests run there too, on both stores (40 writers retrying on one
# item, 150 events of 200 KB to a stalled subscriber, the fuzz suite timing each answer and
# measuring the process's memory): on the PostgreSQL store beside the parallel run they outlasted
# their limits and starved other suites' waits.
HEAVY_SERVER_TESTS='FuzzTests|concurrentWritersToOneItemNeverReuseAVersion|aSlowSubscriberIsDisconnectedWithoutSlowingOthers'
TIMING_SUITES="ConnectionLimitTests|RequestLimitTests|RecoveryTests|LifecycleTests|$HEAVY_SERVER_TESTS"
# A run that hangs fails here after 8 minutes, naming the stage and the tests still running,
# instead of using up CI's 90 (each stage takes under 2 minutes on two cores), and names the tests
# that never ended: where to look. (The PostgreSQL stage hung that way, every thread idle, until
# the instance channel stopped sending on the connection its listener was closing.)
swift_test() {
  local status=0 output
  output=$(mktemp)
  # Line-buffered: a hung test process is killed with its stdout buffer, which held the last
  # 4 KB of names and made the list below name tests that had ended.
  timeout --foreground 8m stdbuf -oL -eL swift test --skip-build "$@" 2>&1 | tee "$output" || status=${PIPESTATUS[0]}
  if [ "$status" -eq 124 ]; then
    echo "swift test $* did not finish in 8 minutes: a test hangs. Started and never ended:" >&2
    python3 scripts/unfinished-tests.py "$output" >&2
  fi
  rm -f "$output"
  return "$status"
}
swift_test --skip "$TIMING_SUITES"
swift_test --filter "$TIMING_SUITES"
echo "== the server's suite again, every server on a PostgreSQL store (a fresh schema each)"
DELTASYNC_TEST_STORE=postgres swift_test --filter DeltaSyncServerTests --skip "$TIMING_SUITES"
DELTASYNC_TEST_STORE=postgres swift_test --filter "$HEAVY_SERVER_TESTS"
echo "== a local-only app links no networking"
bash scripts/check-local-store-links.sh
echo "== an app using the client resolves only the client's packages"
python3 scripts/check-client-dependencies.py
echo "== the Todos example without its views: two devices converge through their live queries"
"$(swift build --show-bin-path)/TodosHeadless"
echo "== the server staged as the container image stages it (docker/Dockerfile runs the same script)"
bash scripts/build-server.sh .build/staged
python3 scripts/check-docker.py

echo "== python gql end-to-end"
VENV=.build/venv
if [ ! -x "$VENV/bin/pytest" ] || ! "$VENV/bin/python" -c "import gql, botocore, selenium" 2>/dev/null; then
  python3 -m venv "$VENV"
  # botocore signs gql's IAM requests (SigV4), as it does against AppSync; selenium drives
  # the Debian chromium through chromedriver for the console's tests.
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "gql[aiohttp,websockets]==4.4.0" "botocore>=1.35,<2" "pytest>=8" "selenium==4.51.0"
fi
if [ -n "$rootfs_pid" ]; then
  echo "== the image's runtime root filesystem"
  if ! wait "$rootfs_pid"; then cat "$ROOTFS_LOG" >&2; echo "scripts/image-rootfs.sh failed" >&2; exit 1; fi
  tail -1 "$ROOTFS_LOG"
  export DELTASYNC_ROOTFS="$ROOTFS"
fi
export DELTASYNC_IMAGE_REPORT="$PWD/.build/image-report.txt"
rm -f "$DELTASYNC_IMAGE_REPORT"
# The staged server: what the image holds, run as Tests/e2e/test_container.py runs the image's
# command, in the image's root filesystem (test_image.py), and packaged as a release artifact
# for the CI action's script (test_ci_server.py).
DELTASYNC_BIN="$PWD/.build/staged/deltasync" "$VENV/bin/pytest" -q Tests/e2e
if [ -f "$DELTASYNC_IMAGE_REPORT" ]; then cat "$DELTASYNC_IMAGE_REPORT"; fi
