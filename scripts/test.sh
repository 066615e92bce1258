#!/usr/bin/env bash
# Runs every test: the Swift suites, then Python gql (a real third-party AppSync client)
# against the built `deltasync` binary. Installs what a fresh machine lacks.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh

echo "== imports declared in Package.swift"
python3 scripts/check-imports.py
echo "== the client's documentation: every public declaration, every example current"
python3 scripts/check-doc-comments.py
python3 scripts/check-doc-examples.py --check
echo "== swift build"
swift build --build-tests --explicit-target-dependency-import-check error
echo "== swift test"
swift test --skip-build
echo "== a local-only app links no networking"
bash scripts/check-local-store-links.sh

echo "== python gql end-to-end"
VENV=.build/venv
if [ ! -x "$VENV/bin/pytest" ] || ! "$VENV/bin/python" -c "import gql, botocore" 2>/dev/null; then
  python3 -m venv "$VENV"
  # botocore signs gql's IAM requests (SigV4), as it does against AppSync.
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "gql[aiohttp,websockets]==4.4.0" "botocore>=1.35,<2" "pytest>=8"
fi
DELTASYNC_BIN="$(swift build --show-bin-path)/deltasync" "$VENV/bin/pytest" -q Tests/e2e
