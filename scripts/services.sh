#!/usr/bin/env bash
# PostgreSQL and Redis for labreport's scale-out mode, run from one folder of their own
# (no system service, no root-owned data). The embedded default (SQLite) never needs them.
#
#   scripts/services.sh start  [--dir DIR] [--pg-port N] [--redis-port N] [--only postgres|redis] [--ephemeral]
#   scripts/services.sh stop   [--dir DIR] [--only postgres|redis]
#   scripts/services.sh status [--dir DIR]
#
# start: on first use creates DIR (default ./.labreport-services) with a PostgreSQL cluster
# (superuser "postgres", trusted on 127.0.0.1 only) holding a database "labreport", starts it
# and a Redis, and prints the settings labreport reads, e.g.
#   DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/labreport
#   LABREPORT_BROKER_URL=redis://127.0.0.1:6379/0
# Ports default to 5432 and 6379; 0 picks a free one. A later start reuses the ports of the
# first. --ephemeral: no fsync and no Redis persistence (tests; a restarted Redis is empty).
# As root, both servers run as the user "postgres" (PostgreSQL refuses to run as root).
# Needs the Debian packages postgresql and redis-server (scripts/setup.sh --dev installs them).
set -euo pipefail

die() { echo "services.sh: $*" >&2; exit 1; }
note() { echo "services.sh: $*" >&2; }

action="${1:-}"; shift || true
dir="${LABREPORT_SERVICES_DIR:-$PWD/.labreport-services}"
pg_port=""; redis_port=""; only=""; ephemeral=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --pg-port) pg_port="$2"; shift 2 ;;
    --redis-port) redis_port="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --ephemeral) ephemeral=1; shift ;;
    *) die "unknown argument $1 (see the top of $0)" ;;
  esac
done
case "$action" in start|stop|status) ;; *) die "usage: $0 start|stop|status [--dir DIR] ..." ;; esac
case "$only" in ""|postgres|redis) ;; *) die "--only takes postgres or redis" ;; esac
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }
dir="$(mkdir -p "$dir" && cd "$dir" && pwd)"

# Run as a non-root user: PostgreSQL refuses root, and neither server needs it.
run_user="$(id -un)"
if [ "$(id -u)" -eq 0 ]; then
  run_user=postgres
  id -u "$run_user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$run_user"
  chown "$run_user": "$dir"
fi
chmod 700 "$dir"
as_user() {
  if [ "$(id -un)" = "$run_user" ]; then "$@"; else runuser -u "$run_user" -- "$@"; fi
}
as_user test -w "$dir" || die "$dir is not writable by the user $run_user: pick a --dir it can reach (e.g. under /tmp)"

pg_bin() {
  local bin="${PG_BIN:-}"
  [ -n "$bin" ] || bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)"
  [ -n "$bin" ] || bin="$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")"
  [ -x "$bin/initdb" ] || die "PostgreSQL is not installed (no initdb): apt-get install postgresql, or set PG_BIN"
  echo "$bin"
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# The port a server of this folder uses: the recorded one (written once it started), else the
# asked one (0 = a free one), else the default.
port_for() {
  local name="$1" asked="$2" default="$3" port
  if [ -s "$dir/$name.port" ]; then port="$(cat "$dir/$name.port")"
  else port="${asked:-$default}"; [ "$port" = 0 ] && port="$(free_port)"; fi
  echo "$port"
}
pg_running() { [ -d "$dir/pg" ] && as_user "$(pg_bin)/pg_ctl" -D "$dir/pg" status >/dev/null 2>&1; }
redis_running() { [ -s "$dir/redis.pid" ] && kill -0 "$(cat "$dir/redis.pid")" 2>/dev/null; }

start_postgres() {
  local bin port; bin="$(pg_bin)"; port="$(port_for pg "$pg_port" 5432)"
  if ! pg_running; then
    in_use "$port" && die "port $port is taken (another PostgreSQL?): point DATABASE_URL at it, or pass --pg-port 0"
    if [ ! -s "$dir/pg/PG_VERSION" ]; then
      note "creating a PostgreSQL cluster in $dir/pg"
      as_user "$bin/initdb" -D "$dir/pg" -U postgres --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1 \
        || die "initdb failed: $(tail -n3 "$dir/initdb.log")"
    fi
    local options="-p $port -k $dir -c listen_addresses=127.0.0.1"
    [ "$ephemeral" = 1 ] && options="$options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    as_user "$bin/pg_ctl" -D "$dir/pg" -l "$dir/pg.log" -o "$options" -w -t 60 start >/dev/null \
      || die "PostgreSQL did not start: $(tail -n3 "$dir/pg.log")"
    echo "$port" > "$dir/pg.port"
  fi
  if [ -z "$(as_user "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = 'labreport'")" ]; then
    as_user "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres labreport
  fi
  echo "DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:$port/labreport"
}

start_redis() {
  local port; port="$(port_for redis "$redis_port" 6379)"
  command -v redis-server >/dev/null 2>&1 || die "Redis is not installed: apt-get install redis-server"
  if ! redis_running; then
    in_use "$port" && die "port $port is taken (another Redis?): point LABREPORT_BROKER_URL at it, or pass --redis-port 0"
    local persist=(--appendonly yes); [ "$ephemeral" = 1 ] && persist=(--appendonly no)
    as_user mkdir -p "$dir/redis"
    as_user redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --dir "$dir/redis" \
      --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --save "" "${persist[@]}" \
      || die "Redis did not start: $(tail -n3 "$dir/redis.log" 2>/dev/null)"
    for _ in $(seq 50); do in_use "$port" && break; sleep 0.1; done
    in_use "$port" || die "Redis did not start: $(tail -n3 "$dir/redis.log" 2>/dev/null)"
    echo "$port" > "$dir/redis.port"
  fi
  echo "LABREPORT_BROKER_URL=redis://127.0.0.1:$port/0"
}

stop_postgres() {
  pg_running && as_user "$(pg_bin)/pg_ctl" -D "$dir/pg" -m fast -w stop >/dev/null
  return 0
}

stop_redis() {
  if redis_running; then
    local pid; pid="$(cat "$dir/redis.pid")"
    kill "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  return 0
}

case "$action" in
  start) want postgres && start_postgres; want redis && start_redis ;;
  stop) want redis && stop_redis; want postgres && stop_postgres ;;
  status)
    if pg_running; then echo "postgres: running on port $(cat "$dir/pg.port")"; else echo "postgres: stopped"; fi
    if redis_running; then echo "redis: running on port $(cat "$dir/redis.port")"; else echo "redis: stopped"; fi ;;
esac
exit 0
