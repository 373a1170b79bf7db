#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on 127.0.0.1 for the test suite.
#   start: prints `TEST_PG_URL=...` (for eval); stop: stops it and removes its files.
# Needs the PostgreSQL server binaries (Debian: apt-get install postgresql); as root, runs them as `postgres`.
set -euo pipefail
PORT="${PG_TEST_PORT:-54329}"
DIR="${PG_TEST_DIR:-/tmp/ramp-gateway-pg-$PORT}"
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -n "$BIN" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

case "${1:-}" in
  start)
    if ! "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then
      mkdir -p "$DIR"
      [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR"
      chmod 700 "$DIR"
      [ -s "$DIR/PG_VERSION" ] || as_owner "'$BIN/initdb' -D '$DIR' -U postgres -A trust -E UTF8 --locale=C.UTF-8" >/dev/null
      as_owner "'$BIN/pg_ctl' -D '$DIR' -l '$DIR/log' -w -o \"-c listen_addresses=127.0.0.1 -p $PORT -k /tmp -c fsync=off -c max_connections=300\" start" >/dev/null
    fi
    echo "TEST_PG_URL=postgresql://postgres@127.0.0.1:$PORT/postgres"
    ;;
  stop)
    if [ -s "$DIR/PG_VERSION" ]; then
      as_owner "'$BIN/pg_ctl' -D '$DIR' -m fast -w stop" >/dev/null 2>&1 || true
      rm -rf "$DIR"
    fi
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
