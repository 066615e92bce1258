#!/usr/bin/env bash
# Runs the randomized convergence test (several devices editing shared posts while going offline
# and online) with many seeds; CI runs one fixed seed per conflict handler.
#   bash scripts/convergence.sh [seeds]     seeds 1...N (default 200), or a list: "17,42"
set -euo pipefail
cd "$(dirname "$0")/.."
DELTASYNC_CONVERGENCE_SEEDS="${1:-200}" swift test --filter ConvergenceTests
