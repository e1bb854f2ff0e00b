#!/usr/bin/env bash
# The 10^6-URL crawl of issue 36, sampled: `locator check --recursive --state` on the generating
# server (bench/crawl-gen-child.mjs) of PAGES pages (default 10^6). MODE (default both):
# - whole: one uninterrupted run;
# - kill: a run killed with SIGKILL once KILL_AT URLs are reported (default PAGES/2), then resumed
#   with the same --state to the end;
# - both: whole, then kill, on the same server; the resumed run's time against the whole run's.
# Every SAMPLE s (default 30) the URLs reported, the process's VmRSS and peak (VmHWM, /proc) and
# the state directory's bytes; at the end GNU time's peak RSS (%M) and the wall time of each run.
# A run is killed after LIMIT s (default 3600). DIST: the built tree to run (default dist/; copy it
# aside to keep rebuilding while this runs).
set -u
PAGES=${PAGES:-1000000}; LIMIT=${LIMIT:-3600}; MODE=${MODE:-both}; SAMPLE=${SAMPLE:-30}
KILL_AT=${KILL_AT:-$((PAGES / 2))}
root=$(cd "$(dirname "$0")/.." && pwd)
DIST=${DIST:-$root/dist}
W=$(mktemp -d /tmp/locator-crawl-million-XXXXXX)
node "$root/bench/crawl-gen-child.mjs" "$PAGES" 0 > "$W/port" & GEN=$!
trap 'kill $GEN 2>/dev/null; rm -rf "$W"' EXIT
for _ in $(seq 50); do [ -s "$W/port" ] && break; sleep 0.1; done
PORT=$(cat "$W/port")
echo "pages $PAGES port $PORT mode $MODE dist $DIST start $(date -u +%T) $(uptime)"

# crawl NAME [KILL_AT]: one run with state $W/state-NAME, output $W/out-NAME; prints its seconds
# on the last line as "secs NAME S". With KILL_AT, SIGKILL once that many lines are out.
crawl() {
  local name=$1 killat=${2:-0} t0 s n pid st
  t0=$(date +%s.%N)
  /usr/bin/time -f %M -o "$W/rss-$name" node "$DIST/cli/locator.cjs" check --recursive --json \
    --max-depth 50 --max-urls 2000000 --state "$W/state-${name%-*}" "http://127.0.0.1:$PORT/p/0.html" \
    > "$W/out-$name" 2> "$W/err-$name" & local TIME=$!
  local last=0
  while kill -0 $TIME 2>/dev/null; do
    sleep 1
    pid=$(pgrep -P $TIME node | head -1)
    s=$(printf '%.0f' "$(echo "$(date +%s.%N) - $t0" | bc)")
    if [ "$killat" -gt 0 ]; then
      n=$(wc -l < "$W/out-$name")
      if [ "$n" -ge "$killat" ] && [ -n "$pid" ]; then
        kill -KILL "$pid"
        echo "$name: killed at ${s}s after $n lines"
        killat=0
      fi
    fi
    if [ $((s - last)) -ge "$SAMPLE" ] && [ -n "$pid" ]; then
      last=$s
      st=$(grep -E 'VmRSS|VmHWM' /proc/$pid/status 2>/dev/null | tr -s ' \n\t' ' ')
      echo "$name t ${s}s urls $(wc -l < "$W/out-$name") $st state $(du -sb "$W/state-${name%-*}" | cut -f1) bytes; load $(cut -d' ' -f1-3 /proc/loadavg)"
    fi
    if [ "$s" -ge "$LIMIT" ] && [ -n "$pid" ]; then kill -KILL "$pid"; echo "$name: killed at the limit"; fi
  done
  wait $TIME; local rc=$?
  s=$(echo "$(date +%s.%N) - $t0" | bc)
  echo "$name: exit $rc after $s s; lines $(wc -l < "$W/out-$name"); peak RSS $(tail -1 "$W/rss-$name") kB; state $(du -sb "$W/state-${name%-*}" | cut -f1) bytes; $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  tail -c 300 "$W/err-$name"
  echo "secs $name $s"
}

if [ "$MODE" = whole ] || [ "$MODE" = both ]; then
  crawl whole | tee "$W/log-whole"
  rm -rf "$W/state-whole"
fi
if [ "$MODE" = kill ] || [ "$MODE" = both ]; then
  crawl b-first "$KILL_AT" | tee "$W/log-first"
  crawl b-resumed | tee "$W/log-resumed"
  # The resumed run reports every URL (the finished ones read back from the state); same set?
  a=$(grep -c '^{"url"' "$W/out-b-resumed")
  echo "resumed: $a URL lines"
fi
if [ "$MODE" = both ]; then
  w=$(awk '/^secs/ {print $3}' "$W/log-whole"); r=$(awk '/^secs/ {print $3}' "$W/log-resumed")
  f=$(awk '/^secs/ {print $3}' "$W/log-first")
  echo "whole $w s; killed run $f s; resumed $r s = $(echo "scale=1; 100 * $r / $w" | bc)% of the whole run (target <= 55%)"
fi
