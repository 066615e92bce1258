#!/usr/bin/env bash
# Builds the local-only example app (Examples/LocalOnly: the DeltaSyncLocalStore product alone),
# runs it, and fails when its binary links any networking or GraphQL library: an app that only
# stores data must not carry SwiftNIO, AsyncHTTPClient, NIOSSL, Hummingbird or GraphQLSwift.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product LocalOnlyNotes
binary="$(swift build --show-bin-path)/LocalOnlyNotes"
output="$("$binary")"
echo "$output"
grep -qx "pinned: Call Ada" <<<"$output" || { echo "the local-only app did not read back what it saved" >&2; exit 1; }

# Swift symbols carry their module's name, length-prefixed: `$s7NIOCore...`, `$s7GraphQL...`.
forbidden='\$s(7NIOCore|8NIOPosix|6NIOSSL|15AsyncHTTPClient|11Hummingbird|7GraphQL|7NIOHTTP1)'
linked="$(nm "$binary" | grep -Eo "$forbidden" | sort -u || true)"
if [ -n "$linked" ]; then
  echo "the local-only app links modules it must not:" >&2
  echo "$linked" | sed 's/^\$s[0-9]*/  /' >&2
  exit 1
fi
echo "the local-only app links no networking and no GraphQL library"
