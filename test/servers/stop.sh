#!/usr/bin/env bash
# Stops every server started by start.sh under the given state directory, and removes it.
set -u
TS=${1:?usage: stop.sh TS}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# innd acts on SIGTERM only at its next wake-up: ask it to shut down first (test-servers.md section 5).
[ -f "$TS/nntp/pid" ] && /usr/lib/news/bin/ctlinnd -s -t 10 shutdown 'tests done' >/dev/null 2>&1
for f in "$TS"/*/pid "$TS"/smtp/submit.pid; do [ -f "$f" ] && stop_pid "$(cat "$f")" 100; done
case "$TS" in /tmp/locator-servers.*) rm -rf "$TS" ;; esac
exit 0
