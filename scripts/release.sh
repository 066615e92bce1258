#!/usr/bin/env bash
# Builds a release artifact of the `deltasync` server for this machine's platform:
#
#   OUT/deltasync-VERSION-OS-ARCH.tar.gz   one folder of the same name, holding
#       deltasync                 the server (release build, Swift runtime linked in), stamped
#                                 with VERSION, the commit and the build date (`deltasync --version`)
#       schema.graphql            the example schema (Examples/blog)
#       completions/              bash, zsh and fish completions
#       LICENSE, THIRD-PARTY-NOTICES, README.md (how to start it, and where the rest is)
#       NEEDED                    the shared libraries the binary loads (Linux)
#   OUT/SHA256SUMS                every artifact in OUT with its SHA-256, as `sha256sum -c` reads it
#
# OS-ARCH is linux-x86_64, linux-arm64 or macos-universal. On Linux the binary's libraries are
# checked against the image's runtime root filesystem when one is given (--rootfs, built by
# scripts/image-rootfs.sh): what the artifact needs, the image installs.
#
# --checksums DIR only writes DIR/SHA256SUMS for the artifacts already in DIR (the release
# workflow gathers every platform's artifact into one folder, then runs it).
#
# --from-staged DIR packages a folder scripts/build-server.sh staged already (a debug build, with
# its Swift libraries beside it) instead of building: the tests make an artifact in seconds that way.
# The publishing workflows (.github/workflows/release.yml) only run this script.
#
# Usage: scripts/release.sh [--version V] [--out DIR] [--rootfs DIR] [--from-staged DIR]
#        scripts/release.sh --checksums DIR
set -euo pipefail
cd "$(dirname "$0")/.."

# SHA256SUMS lists every artifact in the folder, so several platforms' builds can share one.
checksums() {
  local folder="$1" sums
  sums="$(mktemp)"
  (
    cd "$folder"
    ls deltasync-*.tar.gz > /dev/null 2>&1 || { echo "release.sh: no deltasync-*.tar.gz in $folder" >&2; exit 1; }
    if command -v sha256sum >/dev/null; then sha256sum -- deltasync-*.tar.gz; else shasum -a 256 -- deltasync-*.tar.gz; fi
  ) > "$sums"
  chmod 644 "$sums"
  mv "$sums" "$folder/SHA256SUMS"
}
if [ "${1:-}" = --checksums ]; then
  [ $# -eq 2 ] || { echo "usage: scripts/release.sh --checksums DIR" >&2; exit 64; }
  checksums "$2"
  cat "$2/SHA256SUMS"
  exit 0
fi

usage() { echo "usage: scripts/release.sh [--version V] [--out DIR] [--rootfs DIR] [--from-staged DIR] | --checksums DIR" >&2; }
version="" out=".build/release-artifacts" rootfs="" staged=""
while [ $# -gt 0 ]; do
  case "$1" in
    --version|--out|--rootfs|--from-staged)
      [ $# -ge 2 ] || { echo "release.sh: $1 needs a value" >&2; usage; exit 64; }
      case "$1" in --version) version="$2" ;; --out) out="$2" ;; --rootfs) rootfs="$2" ;; --from-staged) staged="$2" ;; esac
      shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "release.sh: unknown argument $1" >&2; usage; exit 64 ;;
  esac
done

commit="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
# A build of uncommitted changes says so: the commit alone would not describe its source.
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit="$commit-dirty"; fi
if [ -z "$version" ]; then
  # A tag v1.2.3 on this commit names the release; anything else is a development build.
  version="$(git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null | sed 's/^v//')" || true
  [ -n "$version" ] || version="0.0.0-dev.$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
fi
case "$version" in
  *[!0-9A-Za-z.+_-]*|"") echo "release.sh: version '$version': use letters, digits and . + _ - only" >&2; exit 64 ;;
esac
# The date of the commit, not of the build: two builds of one commit carry the same stamp and
# the same file times (SOURCE_DATE_EPOCH overrides, as reproducible builds expect).
epoch="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
date_stamp="$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u -r "$epoch" +%Y-%m-%dT%H:%M:%SZ)"

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=macos ;;
  *) echo "release.sh: no release for $(uname -s)" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64|amd64) arch=x86_64 ;;
  aarch64|arm64) arch=arm64 ;;
  *) echo "release.sh: no release for $(uname -m)" >&2; exit 1 ;;
esac
[ "$os" = macos ] && arch=universal

name="deltasync-$version-$os-$arch"
work="$(mktemp -d "${TMPDIR:-/tmp}/deltasync-release.XXXXXX")"
trap 'rm -rf "$work"' EXIT
folder="$work/$name"
mkdir -p "$folder/completions" "$out"

if [ -n "$staged" ]; then
  [ -x "$staged/deltasync" ] || { echo "release.sh: $staged/deltasync is not a staged server (scripts/build-server.sh DIR)" >&2; exit 1; }
  cp -L "$staged"/* "$folder/"
elif [ "$os" = linux ]; then
  bash scripts/build-server.sh --release "$work/staged"
  cp "$work/staged"/* "$folder/"
else
  # Both Apple architectures in one binary; the system's Swift runtime is used, as on macOS it is.
  swift build -c release --product deltasync --arch arm64 --arch x86_64
  cp "$(swift build -c release --arch arm64 --arch x86_64 --show-bin-path)/deltasync" "$folder/deltasync"
  strip -S "$folder/deltasync"  # debug information only, as build-server.sh does on Linux
  cp Examples/blog/schema.graphql "$folder/schema.graphql"
fi

python3 scripts/stamp-build.py "$folder/deltasync" "$version" "$commit" "$date_stamp"
expected="deltasync $version (commit $commit, built $date_stamp)"
printed="$("$folder/deltasync" --version)"
if [ "$printed" != "$expected" ]; then
  echo "release.sh: the stamped binary prints '$printed', not '$expected'" >&2
  exit 1
fi

"$folder/deltasync" --generate-completion-script bash > "$folder/completions/deltasync.bash"
"$folder/deltasync" --generate-completion-script zsh > "$folder/completions/_deltasync"
"$folder/deltasync" --generate-completion-script fish > "$folder/completions/deltasync.fish"
cp LICENSE "$folder/LICENSE"
python3 scripts/release-notices.py > "$folder/THIRD-PARTY-NOTICES"
python3 scripts/release-readme.py "$version" "$os-$arch" > "$folder/README.md"

if [ "$os" = linux ]; then
  libraries=(python3 scripts/check-image-libraries.py "$folder/deltasync")
  [ -n "$rootfs" ] && libraries+=(--rootfs "$rootfs")
  "${libraries[@]}" > "$folder/NEEDED"
  cat "$folder/NEEDED"
fi

# The same bytes for the same inputs: sorted entries, fixed owners and times, no name or time in
# the gzip header.
tar_flags=(--sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch")
[ "$os" = macos ] && tar_flags=()
tar -C "$work" "${tar_flags[@]}" -cf - "$name" | gzip -n > "$out/$name.tar.gz"

checksums "$out"
echo "built $out/$name.tar.gz ($(wc -c < "$out/$name.tar.gz" | tr -d ' ') bytes): $printed"
