#!/usr/bin/env python3
"""Writes a release's version, commit and build date into a built `deltasync` binary, for
`deltasync --version` (Backend/DeltaSyncCLI/BuildStamp.swift keeps the room for them: a marker
followed by spaces). The bytes are overwritten in place, keeping the length, so nothing else in
the binary moves.

Usage: scripts/stamp-build.py BINARY VERSION COMMIT DATE
"""
import re
import sys

MARKER = b"@@deltasync-build-stamp@@"
# At least this many spaces after the marker: BuildStamp.placeholder's blank room (and not the
# marker's other spelling in the binary, which is not followed by spaces).
MIN_ROOM = 64


def stamp(path: str, version: str, commit: str, date: str) -> str:
    for name, value in (("version", version), ("commit", commit), ("date", date)):
        if not value or not re.fullmatch(r"[0-9A-Za-z.+:_-]+", value):
            raise ValueError(f"the {name} {value!r} must be non-empty, without spaces (letters, digits, . + : _ -)")
    with open(path, "rb") as file:
        data = bytearray(file.read())
    blank = re.compile(re.escape(MARKER) + b" {%d,}" % MIN_ROOM)
    found = list(blank.finditer(data))
    if len(found) != 1:
        stamped = len(re.findall(re.escape(MARKER) + rb"[0-9A-Za-z.+:_-]+ ", data))
        reason = "it is stamped already" if stamped and not found else f"found {len(found)} blank stamps"
        raise ValueError(f"{path}: cannot stamp it ({reason}); stamp a fresh build of deltasync")
    room = found[0].end() - found[0].start() - len(MARKER)
    text = f"{version} {commit} {date}".encode()
    if len(text) > room:
        raise ValueError(f"`{text.decode()}` is longer than the {room} bytes BuildStamp.placeholder keeps")
    start = found[0].start() + len(MARKER)
    data[start:start + room] = text.ljust(room, b" ")
    with open(path, "r+b") as file:
        file.write(data)
    return text.decode()


if __name__ == "__main__":
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        sys.exit(64)
    try:
        print("stamped:", stamp(*sys.argv[1:]))
    except (OSError, ValueError) as error:
        print(f"stamp-build.py: {error}", file=sys.stderr)
        sys.exit(1)
