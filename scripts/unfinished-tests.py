#!/usr/bin/env python3
"""Names the tests a swift-testing run started and never ended, from its output (stdin or a
file): what scripts/test.sh prints when a stage hangs. Parameterized cases are left out; their
test is named.

Usage: scripts/unfinished-tests.py [OUTPUT]
"""
import re
import sys

text = open(sys.argv[1], encoding="utf-8", errors="replace").read() if len(sys.argv) > 1 else sys.stdin.read()
started = re.findall(r"◇ Test (.+?) started\.", text)
ended = {m.group(1) for m in re.finditer(r"[✔✘] Test (.+?) (?:with \d+ test cases? )?(?:passed|failed) after ", text)}
unfinished = [name for name in started if name not in ended and not name.startswith("case passing") and name != "run"]
print("\n".join(f"  {name}" for name in unfinished) if unfinished else "  (none named)")
