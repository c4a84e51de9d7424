#!/usr/bin/env bash
# Starts the local PostgreSQL and Redis that the scale-out tests use, if they are not running.
# The embedded default (SQLite, in-process workers) never needs them.
set -u
if ! (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then
  command -v pg_ctlcluster >/dev/null 2>&1 && \
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || \
    echo "warning: could not start PostgreSQL"
fi
if ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  command -v redis-server >/dev/null 2>&1 && \
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || \
    echo "warning: could not start Redis"
fi
exit 0
