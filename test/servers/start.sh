#!/usr/bin/env bash
# Starts the real servers the client tests use, each on loopback, in a fresh state directory.
# Prints the state directory (TS) on stdout; stop.sh TS stops everything. Recipes:
# test/data/docs/test-servers.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/install.sh" >&2
. "$here/lib.sh"
# The ports are fixed: a second test run at the same time would test against the first's servers.
PORTS=(
  2121 7070 7071 7079 8080
  2525 2526 # smtp
  5513 3270 # rlogin, hercules
  1119 # nntp
  2323 # telnet
)
for p in "${PORTS[@]}"; do
  if nc -z 127.0.0.1 "$p" 2>/dev/null; then
    echo "port $p on 127.0.0.1 is in use (another test run, or another server): stop it first" >&2
    exit 1
  fi
done
export TS=$(mktemp -d /tmp/locator-servers.XXXXXX); chmod 755 "$TS"
SERVERS=(
  ftp gopher gophernicus finger http
  smtp
  rlogin hercules
  nntp
  telnet
)
for s in "${SERVERS[@]}"; do
  ( . "$here/$s.sh" ) >&2 || { echo "starting $s failed" >&2; bash "$here/stop.sh" "$TS" >&2; exit 1; }
done
echo "$TS"
