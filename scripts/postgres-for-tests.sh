#!/usr/bin/env bash
# Start a throwaway PostgreSQL for the tests (Debian's package, installed if missing and we are
# root) and print its SQLAlchemy URL; `scripts/postgres-for-tests.sh stop DIR` stops it. Prints
# nothing when PostgreSQL cannot be had here: the PostgreSQL tests are then skipped.
set -uo pipefail
if [ "${1:-}" = stop ]; then
  su postgres -c "$(ls -d /usr/lib/postgresql/*/bin | tail -1)/pg_ctl -D '$2' stop -m fast" >/dev/null 2>&1
  rm -rf "$(dirname "$2")"
  exit 0
fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null 2>&1; }
  fi
fi
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -1)
if [ -z "$bin" ] || [ "$(id -u)" != 0 ]; then
  exit 0
fi
dir=$(mktemp -d /tmp/pasur-pg.XXXXXX)
chown postgres "$dir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
su postgres -c "$bin/initdb -D '$dir/data' --auth=trust -U postgres" >/dev/null 2>&1 || exit 0
su postgres -c "$bin/pg_ctl -D '$dir/data' -o '-p $port -k $dir -c listen_addresses=127.0.0.1' -l '$dir/log' -w start" >/dev/null 2>&1 || exit 0
su postgres -c "$bin/createdb -h 127.0.0.1 -p $port pasur" >/dev/null 2>&1 || exit 0
echo "postgresql+psycopg://postgres@127.0.0.1:$port/pasur $dir/data"
