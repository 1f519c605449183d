#!/usr/bin/env bash
# Run by `npm test` (pretest): the GraphiQL browser test drives Debian's Chromium at /usr/bin/chromium
# through playwright-core, which never downloads a browser. Install it when it is missing and this
# user may (root, as in CI); otherwise say how, and let the browser test fail with that message.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "[pretest] installing Debian's chromium for the browser test…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "[pretest] /usr/bin/chromium is missing: install it (sudo apt-get install chromium) or the browser test fails" >&2
