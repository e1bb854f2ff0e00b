#!/usr/bin/env bash
# The 10^6-URL crawl of issue 36, sampled: `locator check --recursive --state` on the generating
# server (bench/crawl-gen-child.mjs) of PAGES pages (default 10^6), killed after LIMIT seconds
# (default 1200); every 30 s the URLs reported, the process's VmRSS and peak (VmHWM) and the state
# directory's bytes. For a run too long for /usr/bin/time's figure to arrive. Needs dist/ built.
set -u
PAGES=${PAGES:-1000000}; LIMIT=${LIMIT:-1200}
root=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d /tmp/locator-crawl-million-XXXXXX)
node "$root/bench/crawl-gen-child.mjs" "$PAGES" 0 > "$W/port" & GEN=$!
for _ in $(seq 50); do [ -s "$W/port" ] && break; sleep 0.1; done
PORT=$(cat "$W/port")
echo "pages $PAGES port $PORT start $(date -u +%T) $(uptime)"
t0=$(date +%s)
node "$root/dist/cli/locator.cjs" check --recursive --json --max-depth 50 --max-urls 2000000 \
  --state "$W/state" "http://127.0.0.1:$PORT/p/0.html" > "$W/out" 2> "$W/err" & LOC=$!
while kill -0 $LOC 2>/dev/null; do
  sleep 30
  s=$(($(date +%s) - t0))
  st=$(grep -E 'VmRSS|VmHWM' /proc/$LOC/status 2>/dev/null | tr -s ' \n' ' ')
  echo "t ${s}s urls $(wc -l < "$W/out") $st state $(du -sb "$W/state" | cut -f1) bytes"
  if [ $s -ge "$LIMIT" ]; then kill -KILL $LOC; echo "killed at the limit"; fi
done
wait $LOC; echo "exit $? after $(($(date +%s) - t0)) s; urls $(wc -l < "$W/out"); state $(du -sb "$W/state" | cut -f1) bytes"
tail -c 300 "$W/err"
kill $GEN; rm -rf "$W"
