#!/usr/bin/env bash
# Builds the root filesystem of the image's runtime stage without a container engine: a minimal
# Debian of the release docker/Dockerfile's final stage starts FROM (debootstrap, with the -slim
# images' dpkg exclusions), then docker/runtime.sh run inside it, as that stage's RUN runs it:
# the same packages, user and folders. The server is not in it: the smoke suite
# (Tests/e2e/test_image.py) mounts a staged folder at the image's /opt/deltasync.
#
# The tree is reused while docker/Dockerfile's base, docker/runtime.sh and this script are
# unchanged (DIR/.deltasync-rootfs holds their hash). Prints the size of the layer docker/runtime.sh
# adds, compressed as a registry stores it, and writes it to DIR/.deltasync-layer-bytes.
#
# Needs root (chroot) and debootstrap (scripts/bootstrap.sh installs it), and Debian's mirror.
#
# Usage: scripts/image-rootfs.sh DIR [--mirror URL]
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/image-rootfs.sh DIR [--mirror URL]" >&2; }
dir="" mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
while [ $# -gt 0 ]; do
  case "$1" in
    --mirror) [ $# -ge 2 ] || { usage; exit 64; }; mirror="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "image-rootfs.sh: unknown option $1" >&2; usage; exit 64 ;;
    *) [ -z "$dir" ] || { usage; exit 64; }; dir="$1"; shift ;;
  esac
done
[ -n "$dir" ] || { usage; exit 64; }
[ "$(id -u)" -eq 0 ] || { echo "image-rootfs.sh: run as root (debootstrap and chroot need it)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "image-rootfs.sh: install debootstrap (bash scripts/bootstrap.sh does)" >&2; exit 1; }

# The final stage's base, e.g. `FROM debian:bookworm-slim` -> bookworm.
base="$(grep -E '^FROM ' docker/Dockerfile | tail -1 | awk '{print $2}')"
suite="$(echo "$base" | sed -E 's/^debian:([a-z]+)(-slim)?$/\1/')"
if [ "$suite" = "$base" ]; then
  echo "image-rootfs.sh: the runtime stage starts FROM $base; only debian:RELEASE[-slim] can be built here" >&2
  exit 1
fi
stamp="$(cat docker/runtime.sh "$0" | sha256sum | cut -c1-16)-$base"
if [ -f "$dir/.deltasync-rootfs" ] && [ "$(cat "$dir/.deltasync-rootfs")" = "$stamp" ]; then
  echo "image root filesystem $dir is current ($base + docker/runtime.sh); its layer: $(cat "$dir/.deltasync-layer-bytes") bytes compressed"
  exit 0
fi

work="$dir.building"
rm -rf "$work" "$dir"
mkdir -p "$work"
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
echo "== debootstrap --variant=minbase $suite (the base of $base)"
debootstrap --variant=minbase "$suite" "$work" "$mirror" > "$work.log" 2>&1 || {
  tail -20 "$work.log" >&2; echo "image-rootfs.sh: debootstrap failed (log: $work.log)" >&2; exit 1; }
rm -f "$work.log"

# What makes the official -slim images slim: no documentation, manuals or translations, now or
# in packages installed later.
if [[ "$base" == *-slim ]]; then
  cat > "$work/etc/dpkg/dpkg.cfg.d/docker" <<'EXCLUDES'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EXCLUDES
  find "$work/usr/share/doc" -mindepth 1 ! -name copyright ! -type d -delete
  rm -rf "$work"/usr/share/{groff,info,linda,lintian,locale,man}/*
fi
rm -rf "$work"/var/cache/apt/archives/*.deb "$work"/var/lib/apt/lists/*

# The base's files, to tell the layer docker/runtime.sh adds from them.
before="$(mktemp)"
(cd "$work" && find . -xdev \( -type f -o -type l \) -printf '%p %s %T@\n' | sort) > "$before"

echo "== docker/runtime.sh inside it (the image's runtime stage)"
cp /etc/resolv.conf "$work/etc/resolv.conf"
cp docker/runtime.sh "$work/tmp/runtime.sh"
unshare --mount --propagation private sh -c \
  'mount -t proc proc "$1/proc" && exec chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin sh /tmp/runtime.sh' \
  sh "$work" > "$work.log" 2>&1 || { tail -20 "$work.log" >&2; echo "image-rootfs.sh: docker/runtime.sh failed" >&2; exit 1; }
rm -f "$work.log" "$work/tmp/runtime.sh"
: > "$work/etc/resolv.conf"

# The layer: every file the RUN step added or changed, compressed as a registry stores layers.
after="$(mktemp)"
(cd "$work" && find . -xdev \( -type f -o -type l \) -printf '%p %s %T@\n' | sort) > "$after"
changed="$(mktemp)"
comm -13 "$before" "$after" | awk '{print $1}' > "$changed"
layer_bytes="$(cd "$work" && tar --no-recursion -cf - -T "$changed" | gzip -6 | wc -c)"
rm -f "$before" "$after" "$changed"
echo "$layer_bytes" > "$work/.deltasync-layer-bytes"
echo "$stamp" > "$work/.deltasync-rootfs"
mv "$work" "$dir"
trap - EXIT
echo "image root filesystem in $dir ($(du -sh --exclude=proc "$dir" | cut -f1)); the layer docker/runtime.sh adds: $layer_bytes bytes compressed"
