#!/usr/bin/env python3
"""Prints the README.md of a release artifact: what the folder holds and how to start it, then
the repository README's introduction and its "Point a client at it" section (read from
README.md, so the two never disagree).

Usage: scripts/release-readme.py VERSION PLATFORM
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def section(text, heading):
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## )", text, re.MULTILINE | re.DOTALL)
    if not match:
        raise SystemExit(f"release-readme.py: README.md has no `## {heading}` section")
    return match.group(1).strip()


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: scripts/release-readme.py VERSION PLATFORM")
    version, platform = sys.argv[1:]
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as file:
        readme = file.read()
    introduction = readme.split("\n## ", 1)[0].split("\n", 1)[1].strip()
    print(f"""# DeltaSync {version} ({platform})

{introduction}

## This folder

- `deltasync`: the server. `./deltasync serve --schema schema.graphql` serves the example schema
  (`schema.graphql`, a blog) with an embedded SQLite store; `./deltasync --help` lists the commands.
- `completions/`: `deltasync.bash` (source it, or copy it to `/etc/bash_completion.d/`), `_deltasync`
  (a folder on zsh's `$fpath`), `deltasync.fish` (`~/.config/fish/completions/`).
- `NEEDED`: the shared libraries the server loads (Linux), each with the Debian package that provides it.
- `LICENSE` (DeltaSync's) and `THIRD-PARTY-NOTICES` (the packages built into it).

Put it on your `PATH` (`sudo install -m 755 deltasync /usr/local/bin/`) or run it from here.

## Point a client at it

{section(readme, "Point a client at it")}

The full documentation: README.md in the repository, at the commit `deltasync --version` names.
""")


if __name__ == "__main__":
    main()
