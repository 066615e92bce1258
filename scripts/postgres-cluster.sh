#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests: Debian's `postgresql` binaries, a data folder of its
# own, a free port on 127.0.0.1, trust authentication for the `deltasync` role.
#
#   bash scripts/postgres-cluster.sh start DIR   # prints postgres://deltasync@127.0.0.1:PORT/deltasync
#   bash scripts/postgres-cluster.sh stop DIR
#   bash scripts/postgres-cluster.sh down DIR    # stops the server, keeps the data (a database outage)
#   bash scripts/postgres-cluster.sh up DIR      # starts it again on the same port
#
# PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user the
# package creates. Durability is off (fsync, synchronous_commit): a test cluster is thrown away.
set -euo pipefail

command=${1:-}
dir=${2:-}
if [ -z "$command" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop|down|up DIR" >&2
  exit 2
fi

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "PostgreSQL's server binaries are missing: run scripts/bootstrap.sh (it installs Debian's postgresql)." >&2
  exit 1
fi

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "$command" in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/initdb" -D "$dir/data" -U deltasync --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 || {
      cat "$dir/initdb.log" >&2
      exit 1
    }
    echo "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=1000" >"$dir/options"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "$(cat "$dir/options")" start >/dev/null || {
      cat "$dir/server.log" >&2
      exit 1
    }
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U deltasync deltasync
    echo "postgres://deltasync@127.0.0.1:$port/deltasync" | tee "$dir/url"
    ;;
  down)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  up)
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "$(cat "$dir/options")" start >/dev/null || {
      cat "$dir/server.log" >&2
      exit 1
    }
    ;;
  stop)
    if [ -d "$dir/data" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop|down|up DIR" >&2
    exit 2
    ;;
esac
