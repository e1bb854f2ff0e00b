#!/usr/bin/env bash
# Stops every server started by start.sh under the given state directory, and removes it.
set -u
TS=${1:?usage: stop.sh TS}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# innd acts on SIGTERM only at its next wake-up: ask it to shut down first (test-servers.md section
# 5), through the control socket of this TS's own INN (its inn.conf names it).
if [ -f "$TS/nntp/pid" ] && [ -f "$TS/nntp/etc/inn.conf" ]; then
  INNCONF="$TS/nntp/etc/inn.conf" /usr/lib/news/bin/ctlinnd -s -t 10 shutdown 'tests done' >/dev/null 2>&1
fi
for f in "$TS"/*/pid "$TS"/smtp/submit.pid; do [ -f "$f" ] && stop_pid "$(cat "$f")" 100; done
case "$TS" in /tmp/locator-servers.*) rm -rf "$TS" ;; esac
exit 0
