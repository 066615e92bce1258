#!/usr/bin/env python3
"""Fails when a public declaration of the client (Client/DeltaSyncLocalStore,
Client/DeltaSyncClient) has no `///` doc comment: the libraries apps read are documented in
full, as their DocC catalog shows them."""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ["Client/DeltaSyncLocalStore", "Client/DeltaSyncClient"]
DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*public\s")
ATTRIBUTE = re.compile(r"^\s*@\w+(?:\([^)]*\))?\s*$")

missing = []
for folder in FOLDERS:
    for path in sorted(glob.glob(os.path.join(ROOT, folder, "**", "*.swift"), recursive=True)):
        lines = open(path, encoding="utf-8").read().split("\n")
        for number, line in enumerate(lines):
            if not DECLARATION.match(line):
                continue
            previous = number - 1
            while previous >= 0 and ATTRIBUTE.match(lines[previous]):
                previous -= 1
            if previous < 0 or not lines[previous].strip().startswith("///"):
                missing.append(f"{os.path.relpath(path, ROOT)}:{number + 1}: {line.strip()}")
if missing:
    print("public declarations without a doc comment:")
    print("\n".join(missing))
    sys.exit(1)
print("every public declaration of the client has a doc comment")
