#!/usr/bin/env bash
# Run by `npm test` (pretest): the Redis tests (test/redis/) start their own redis-server on a free
# loopback port. Debian's package installs it without starting it, which is what they want. Install
# it when it is missing and this user may (root, as in CI); otherwise say how.
set -euo pipefail
if command -v redis-server >/dev/null; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "[pretest] installing Debian's redis-server for the Redis tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  exit 0
fi
echo "[pretest] redis-server is missing: install it (sudo apt-get install redis-server) or the Redis tests fail" >&2
