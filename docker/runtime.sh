#!/bin/sh
# The image's runtime stage: the packages the server needs, its user and its folders. One
# script, run by docker/Dockerfile's final stage (on debian:bookworm-slim) and by
# scripts/image-rootfs.sh inside a debootstrap-built Debian of the same release, so the root
# filesystem the smoke suite runs in (Tests/e2e/test_image.py) is the image's.
#
#   docker/runtime.sh            install, add the user, make the folders (as root)
#   docker/runtime.sh packages   print the package list (scripts/check-image-libraries.py)
set -eu

# libsqlite3 for the store; libstdc++ and zlib for the linked-in Swift runtime and Foundation;
# ca-certificates for https calls the server makes (JWKS, Lambda authorizers, OIDC discovery,
# functions); curl for HEALTHCHECK; nodejs and python3 run an Amplify project's `@function`
# handlers locally.
PACKAGES="libsqlite3-0 libstdc++6 zlib1g ca-certificates curl nodejs python3"
# The server's user (the image's USER) and its data folder (the image's VOLUME and WORKDIR).
USER_NAME=deltasync
USER_ID=10001
DATA=/data

case "${1:-install}" in
  packages) echo "$PACKAGES"; exit 0 ;;
  install) ;;
  *) echo "usage: docker/runtime.sh [install|packages]" >&2; exit 64 ;;
esac

apt-get update
# shellcheck disable=SC2086 # one word per package
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $PACKAGES
apt-get clean
rm -rf /var/lib/apt/lists/*
useradd --system --uid "$USER_ID" --user-group --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
mkdir -p "$DATA"
chown "$USER_NAME:$USER_NAME" "$DATA"
