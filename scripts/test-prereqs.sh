#!/usr/bin/env bash
# Installs the two system programs the test suite drives for real, when they are missing:
# Debian's PostgreSQL server (the store contract suite runs on both dialects) and Debian's
# Chromium (the dashboard's end-to-end tests; Playwright's own browser download does not work
# here). Runs before `npm test`; does nothing when both are present.
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi; }
have_postgres() { ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; }
have_chromium() { [ -x /usr/bin/chromium ]; }

missing=()
have_postgres || missing+=(postgresql)
have_chromium || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "test prerequisites: installing ${missing[*]} from Debian's packages (once)"
if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
  ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; then
  echo "test prerequisites: could not install ${missing[*]}; install them (apt-get install ${missing[*]}) and run npm test again" >&2
  exit 1
fi
