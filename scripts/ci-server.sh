#!/usr/bin/env bash
# DeltaSync in CI without a Swift toolchain: installs a release (checksum verified, kept in a
# cache), then starts a server in the background or runs one command against a server. The
# GitHub Action (action.yml) is this script; any other CI can run it the same way.
#
#   scripts/ci-server.sh resolve                       print the release version to install
#   scripts/ci-server.sh install                       install it; print the folder holding deltasync
#   scripts/ci-server.sh serve [SERVE OPTIONS...]      start `deltasync serve` in the background and
#                                                      print url=, realtime-url=, api-key=, admin-key=
#   scripts/ci-server.sh exec [SERVE OPTIONS...] -- COMMAND...
#                                                      `deltasync exec`: the command's exit status is this script's
#
# Environment:
#   DELTASYNC_VERSION   the release, e.g. 1.2.0 or v1.2.0; `latest` (the default) is the newest
#   DELTASYNC_RELEASES  where releases are: a GitHub releases URL (the default,
#                       https://github.com/deltasync/deltasync/releases), or a folder holding
#                       deltasync-VERSION-OS-ARCH.tar.gz files and their SHA256SUMS (mirrors, tests)
#   DELTASYNC_CACHE     where installed releases are kept (default: $RUNNER_TOOL_CACHE/deltasync,
#                       else ~/.cache/deltasync); a verified release found there is not downloaded again
#   DELTASYNC_API_KEY, DELTASYNC_ADMIN_KEY
#                       the keys `serve` starts with (generated when unset)
# On GitHub Actions (GITHUB_OUTPUT, GITHUB_PATH, GITHUB_ENV set) the outputs, the PATH entry and
# the DELTASYNC_* variables for later steps are written there too, and the keys are masked.
set -euo pipefail

fail() { echo "ci-server.sh: $*" >&2; exit 1; }
work=""  # a download in progress, removed however the script ends
trap '[ -z "$work" ] || rm -rf "$work"' EXIT
releases="${DELTASYNC_RELEASES:-https://github.com/deltasync/deltasync/releases}"
cache="${DELTASYNC_CACHE:-${RUNNER_TOOL_CACHE:+$RUNNER_TOOL_CACHE/deltasync}}"
cache="${cache:-$HOME/.cache/deltasync}"

platform() {
  local os arch
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) echo macos-universal; return ;;
    *) fail "no DeltaSync release for $(uname -s); build from source (swift build -c release --product deltasync)" ;;
  esac
  case "$(uname -m)" in
    x86_64|amd64) arch=x86_64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) fail "no DeltaSync release for $(uname -m)" ;;
  esac
  echo "$os-$arch"
}

is_local() { [ -d "$releases" ]; }

resolve() {
  local version="${DELTASYNC_VERSION:-latest}"
  version="${version#v}"
  if [ "$version" != latest ]; then echo "$version"; return; fi
  if is_local; then
    # The highest version with an artifact for this platform.
    version="$(cd "$releases" && { ls deltasync-*-"$(platform)".tar.gz 2>/dev/null || true; } \
      | sed -E "s/^deltasync-(.*)-$(platform)\.tar\.gz$/\1/" | sort -V | tail -1)"
    [ -n "$version" ] || fail "no deltasync-*-$(platform).tar.gz in $releases"
  else
    # GitHub redirects .../releases/latest to .../releases/tag/vVERSION: no API token needed.
    local landed
    landed="$(curl -fsSLI -o /dev/null -w '%{url_effective}' "$releases/latest")" \
      || fail "cannot reach $releases/latest; set DELTASYNC_VERSION or DELTASYNC_RELEASES"
    version="${landed##*/tag/}"
    version="${version#v}"
    [ "$version" != "$landed" ] && [ -n "$version" ] || fail "$releases/latest led to $landed, not to a release tag"
  fi
  echo "$version"
}

fetch() { # fetch NAME VERSION TARGET
  if is_local; then
    cp "$releases/$1" "$3" 2>/dev/null || fail "$releases/$1 is missing"
  else
    curl -fsSL --retry 3 -o "$3" "$releases/download/v$2/$1" || fail "cannot download $releases/download/v$2/$1"
  fi
}

sha256() { if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi; }

install() {
  local version name folder expected actual
  version="$(resolve)"
  name="deltasync-$version-$(platform)"
  folder="$cache/$version/$(platform)"
  if [ -x "$folder/deltasync" ] && [ -f "$folder/.sha256" ]; then
    echo "using $name from the cache ($folder)" >&2
  else
    mkdir -p "$cache"
    work="$(mktemp -d "$cache/.download.XXXXXX")"
    fetch SHA256SUMS "$version" "$work/SHA256SUMS"
    fetch "$name.tar.gz" "$version" "$work/$name.tar.gz"
    expected="$(awk -v file="$name.tar.gz" '$2 == file || $2 == "*" file { print $1 }' "$work/SHA256SUMS")"
    [ -n "$expected" ] || fail "SHA256SUMS of $version lists no $name.tar.gz"
    actual="$(sha256 "$work/$name.tar.gz")"
    [ "$expected" = "$actual" ] || fail "$name.tar.gz does not match SHA256SUMS (expected $expected, got $actual): the download is damaged or not the release; nothing was installed"
    tar -xzf "$work/$name.tar.gz" -C "$work"
    [ -x "$work/$name/deltasync" ] || fail "$name.tar.gz holds no $name/deltasync"
    echo "$actual" > "$work/$name/.sha256"
    mkdir -p "$(dirname "$folder")"
    rm -rf "$folder"
    mv "$work/$name" "$folder"
    rm -rf "$work"
    echo "installed $name in $folder" >&2
  fi
  [ -n "${GITHUB_PATH:-}" ] && echo "$folder" >> "$GITHUB_PATH"
  echo "$folder"
}

output() { # output NAME VALUE: stdout, and GITHUB_OUTPUT on GitHub Actions
  echo "$1=$2"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1=$2" >> "$GITHUB_OUTPUT"; fi
}

key() { echo "$1-$(od -An -N13 -tx1 /dev/urandom | tr -d ' \n')"; }

serve() {
  local folder api_key admin_key log pid line deadline url realtime
  folder="$(install)"
  api_key="${DELTASYNC_API_KEY:-$(key da2)}"
  admin_key="${DELTASYNC_ADMIN_KEY:-$(key dsa)}"
  if [ "${GITHUB_ACTIONS:-}" = true ]; then echo "::add-mask::$api_key"; echo "::add-mask::$admin_key"; fi
  log="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/deltasync-serve.XXXXXX")"
  # Its own session, so the step that started it can end while it serves the later steps.
  nohup "$folder/deltasync" serve --log-format json --api-key "$api_key" --admin-key "$admin_key" "$@" > "$log" 2>&1 < /dev/null &
  pid=$!
  deadline=$((SECONDS + 60))
  line=""
  # The server prints one JSON line with "message":"ready" once its port is bound.
  until line="$(grep -m1 '"message":"ready"' "$log")"; do
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; fail "deltasync serve exited before it was ready (log above)"; }
    [ "$SECONDS" -lt "$deadline" ] || { kill "$pid"; cat "$log" >&2; fail "deltasync serve was not ready in 60 s"; }
    sleep 0.1
  done
  url="$(echo "$line" | sed -E 's/.*"graphqlUrl":"([^"]*)".*/\1/')"
  realtime="$(echo "$line" | sed -E 's/.*"realtimeUrl":"([^"]*)".*/\1/')"
  output url "$url"
  output realtime-url "$realtime"
  output api-key "$api_key"
  output admin-key "$admin_key"
  output pid "$pid"
  output log "$log"
  if [ -n "${GITHUB_ENV:-}" ]; then
    printf 'DELTASYNC_URL=%s\nDELTASYNC_REALTIME_URL=%s\nDELTASYNC_API_KEY=%s\nDELTASYNC_ADMIN_KEY=%s\n' \
      "$url" "$realtime" "$api_key" "$admin_key" >> "$GITHUB_ENV"
  fi
}

command="${1:-}"
[ $# -gt 0 ] && shift
case "$command" in
  resolve) resolve ;;
  install) install ;;
  serve) serve "$@" ;;
  exec)
    folder="$(install)"
    exec "$folder/deltasync" exec "$@" ;;
  *) echo "usage: scripts/ci-server.sh resolve | install | serve [SERVE OPTIONS...] | exec [SERVE OPTIONS...] -- COMMAND..." >&2; exit 64 ;;
esac
