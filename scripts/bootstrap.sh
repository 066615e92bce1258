#!/usr/bin/env bash
# Installs the system packages DeltaSync needs (Debian/Ubuntu), only those missing.
set -euo pipefail

missing=()
dpkg -s libsqlite3-dev >/dev/null 2>&1 || missing+=(libsqlite3-dev)
python3 -c "import venv, ensurepip" >/dev/null 2>&1 || missing+=(python3-venv)
# The console's browser tests: a headless Chromium driven through chromedriver.
dpkg -s chromium >/dev/null 2>&1 || missing+=(chromium)
dpkg -s chromium-driver >/dev/null 2>&1 || missing+=(chromium-driver)
# Local `@function` handlers: Node and Python runtimes (python3 is there already).
command -v node >/dev/null 2>&1 || missing+=(nodejs)
# The PostgreSQL store's tests: a throw-away cluster (scripts/postgres-cluster.sh).
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)

# The image's runtime root filesystem for its smoke suite, built without a container engine
# (scripts/image-rootfs.sh); readelf (binutils) lists a binary's libraries (check-image-libraries.py).
command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || missing+=(debootstrap)
command -v readelf >/dev/null 2>&1 || missing+=(binutils)

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
