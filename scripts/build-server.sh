#!/usr/bin/env bash
# Builds the `deltasync` server and stages what its container image holds into OUTDIR:
#
#   OUTDIR/deltasync        the server
#   OUTDIR/schema.graphql   the example schema (Examples/blog), the image's default
#   OUTDIR/lib*.so*         the Swift runtime, only when it is not linked in (debug builds):
#                           the binary's RUNPATH ends in $ORIGIN, so they are found beside it
#
# docker/Dockerfile runs it with --release; scripts/test.sh runs it in debug mode and the
# end-to-end tests run OUTDIR/deltasync, so the image and CI build and stage the server the same
# way (scripts/check-docker.py checks that the three agree).
#
# Usage: scripts/build-server.sh [--release] OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/build-server.sh [--release] OUTDIR" >&2; }

release=0
out=""
for argument in "$@"; do
  case "$argument" in
    --release) release=1 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "build-server.sh: unknown option $argument" >&2; usage; exit 64 ;;
    *)
      if [ -n "$out" ]; then echo "build-server.sh: one OUTDIR only" >&2; usage; exit 64; fi
      out="$argument" ;;
  esac
done
if [ -z "$out" ]; then usage; exit 64; fi

if [ "$release" = 1 ]; then
  # The Swift runtime and Foundation linked in: the image needs only glibc, libstdc++, zlib
  # and libsqlite3.
  flags=(-c release --static-swift-stdlib)
else
  # The debug build the tests already made (scripts/test.sh builds it first): quick to reuse.
  flags=(-c debug)
fi
echo "== swift build --product deltasync ${flags[*]}"
swift build --product deltasync "${flags[@]}"
bin="$(swift build "${flags[@]}" --show-bin-path)/deltasync"

rm -rf "$out"
mkdir -p "$out"
cp "$bin" "$out/deltasync"
cp Examples/blog/schema.graphql "$out/schema.graphql"

# Swift runtime libraries the binary loads from the toolchain: copied beside it, so the folder
# runs where no toolchain is installed. A release build must need none.
toolchain_lib="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/swift/linux"
runtime=$(ldd "$out/deltasync" | awk -v dir="$toolchain_lib/" 'index($3, dir) == 1 { print $3 }')
if [ -n "$runtime" ]; then
  if [ "$release" = 1 ]; then
    echo "build-server.sh: the release binary still loads Swift libraries from the toolchain:" >&2
    echo "$runtime" >&2
    exit 1
  fi
  for library in $runtime; do cp -L "$library" "$out/"; done
fi
if [ "$release" = 1 ]; then
  # No DWARF, which is most of the file (docs/benchmarks.md, "Release artifacts and the image");
  # the symbol table stays, so a crash's backtrace still names its functions.
  strip --strip-debug "$out/deltasync"
fi
if ldd "$out/deltasync" | grep -q "not found"; then
  echo "build-server.sh: $out/deltasync misses libraries:" >&2
  ldd "$out/deltasync" | grep "not found" >&2
  exit 1
fi
# A release's version, commit and date (`deltasync --version`), when DELTASYNC_STAMP gives them as
# "VERSION COMMIT DATE" (docker/Dockerfile's build argument; scripts/release.sh stamps its own copy).
if [ -n "${DELTASYNC_STAMP:-}" ]; then
  read -r -a stamp <<< "$DELTASYNC_STAMP"
  python3 scripts/stamp-build.py "$out/deltasync" "${stamp[@]}"
fi
echo "staged in $out: $(cd "$out" && ls | tr '\n' ' ')"
