#!/bin/sh
# The browser the service's browser tests drive: Debian's chromium at /usr/bin/chromium.
# Present: nothing to do.  Absent: install Debian's package with apt-get (non-interactive; as root,
# or through sudo when it is there and needs no password).  Never `playwright install`: the tests
# launch this binary with Playwright's `executable_path`.  Prints the binary's path; exit 1 with one
# line on stderr when it cannot be had (the browser tests then fail and say so).
set -eu
BIN="${POKER51_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$BIN" ]; then
    echo "$BIN"
    exit 0
fi
if [ "$(id -u)" = 0 ]; then
    AS=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    AS="sudo -n"
else
    echo "ensure_chromium: $BIN is absent and this user cannot install Debian's chromium (run as root: apt-get install chromium)" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_chromium: $BIN is absent and there is no apt-get here (install chromium and set POKER51_CHROMIUM)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# the package lists are refreshed only when the package is unknown to apt
if ! apt-cache show chromium >/dev/null 2>&1; then
    $AS apt-get update -qq >&2
fi
$AS apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2 || {
    $AS apt-get update -qq >&2
    $AS apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
}
if [ ! -x "$BIN" ]; then
    echo "ensure_chromium: apt-get installed chromium but $BIN is not there" >&2
    exit 1
fi
echo "$BIN"
