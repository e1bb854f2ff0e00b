#!/usr/bin/env bash
# Starts the real servers the client tests use, each on loopback, in a fresh state directory.
# Prints the state directory (TS) on stdout; stop.sh TS stops everything. Recipes:
# ../shared/docs/test-servers.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/install.sh" >&2
export TS=$(mktemp -d /tmp/locator-servers.XXXXXX); chmod 755 "$TS"
. "$here/lib.sh"
for s in ftp gopher gophernicus http; do
  ( . "$here/$s.sh" ) >&2 || { echo "starting $s failed" >&2; bash "$here/stop.sh" "$TS" >&2; exit 1; }
done
echo "$TS"
