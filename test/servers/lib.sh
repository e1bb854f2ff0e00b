# Shell helpers for the test servers (test/data/docs/test-servers.md section 2). All loops bounded.
wait_tcp() { # host port [tries] -> 0 once a TCP connect succeeds
  local h=$1 p=$2 n=${3:-100} i
  for i in $(seq 1 "$n"); do nc -z "$h" "$p" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}
wait_banner() { # host port regex [tries] -> 0 once the greeting matches
  local h=$1 p=$2 re=$3 n=${4:-100} i
  for i in $(seq 1 "$n"); do
    timeout 3 nc -w 2 "$h" "$p" </dev/null 2>/dev/null | head -1 | grep -Eq "$re" && return 0
    sleep 0.1
  done
  return 1
}
stop_pid() { # pid [tries] -> SIGTERM (repeated), wait (bounded), then SIGKILL
  local pid=$1 n=${2:-50} i st
  kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 1 "$n"); do
    st=$(awk '/^State:/{print $2}' /proc/"$pid"/status 2>/dev/null)
    { [ -z "$st" ] || [ "$st" = Z ]; } && return 0
    [ $((i % 5)) -eq 0 ] && kill -TERM "$pid" 2>/dev/null
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null; return 1
}
