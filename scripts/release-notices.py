#!/usr/bin/env python3
"""Prints THIRD-PARTY-NOTICES for a release: the license and notice files of every package the
build resolved (Package.resolved's pins, checked out under .build/checkouts) and of the Swift
runtime a Linux release links in. A pin without a license file fails the release: ship nothing
whose terms are unknown.

Usage: scripts/release-notices.py
"""
import json
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKOUTS = os.path.join(ROOT, ".build", "checkouts")
FILES = ("LICENSE", "LICENSE.txt", "LICENSE.md", "COPYING", "NOTICE", "NOTICE.txt", "NOTICES.txt")


def pins():
    path = os.path.join(ROOT, "Package.resolved")
    try:
        with open(path, encoding="utf-8") as file:
            resolved = json.load(file)
    except (OSError, ValueError) as error:
        raise SystemExit(f"release-notices.py: cannot read {path} ({error}); build first (swift build)")
    return [(pin["location"], pin["location"].rstrip("/").split("/")[-1].removesuffix(".git"),
             pin["state"].get("version") or pin["state"].get("revision", "")) for pin in resolved["pins"]]


def section(title, paths):
    out = [f"{'=' * 78}\n{title}\n{'=' * 78}\n"]
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as file:
            out.append(f"--- {os.path.basename(path)} ---\n{file.read().rstrip()}\n")
    return "\n".join(out) + "\n"


def main():
    parts = ["DeltaSync is built with the packages below; their license and notice files follow.\n\n"]
    missing = []
    for location, name, version in sorted(pins(), key=lambda pin: pin[1].lower()):
        folder = os.path.join(CHECKOUTS, name)
        found = [os.path.join(folder, file) for file in FILES if os.path.isfile(os.path.join(folder, file))]
        if not any(os.path.basename(path).startswith(("LICENSE", "COPYING")) for path in found):
            missing.append(f"{name} ({folder})")
            continue
        parts.append(section(f"{name} {version} ({location})", found))
    swift = shutil.which("swift")
    if sys.platform.startswith("linux") and swift:
        runtime = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swift))), "share", "swift", "LICENSE.txt")
        if not os.path.isfile(runtime):
            missing.append(f"the Swift runtime ({runtime})")
        else:
            parts.append(section("The Swift runtime and Foundation (linked in)", [runtime]))
    if missing:
        raise SystemExit("release-notices.py: no license file for: " + ", ".join(missing))
    sys.stdout.write("".join(parts))


if __name__ == "__main__":
    main()
