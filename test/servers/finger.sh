# Finger (RFC 1288): Debian's in.fingerd (bsd-finger) behind inetutils-inetd on 127.0.0.1:7079, as
# gophernicus.sh runs gophernicus. It serves the x-finger scheme of examples/x-finger.mjs, a scheme
# that is not in the specs (issue 11). in.fingerd cannot log the bytes it got, so each connection
# first goes through a capture: it peeks at the socket (MSG_PEEK: nothing is consumed) until the
# request line is complete, keeps those bytes in $TS/finger/requests/<ns>.<pid> (written whole,
# then renamed, before in.fingerd starts: a client that got the reply finds the file), then execs
# in.fingerd on the same socket. Needs /usr/bin/python3 (a dependency of pygopherd).
: "${TS:?TS must point at the test state directory}"
F="$TS/finger"; mkdir -p "$F/requests"
cat > "$F/capture.py" <<'PY'
import os, socket, sys, time
out = sys.argv[1]
s = socket.socket(fileno=os.dup(0))
s.settimeout(30)
seen, deadline = b"", time.monotonic() + 30
while b"\n" not in seen and len(seen) < 4096 and time.monotonic() < deadline:
    try:
        d = s.recv(4096, socket.MSG_PEEK)
    except OSError:
        break
    if d == b"":
        break
    if len(d) == len(seen):
        time.sleep(0.01)
    seen = d
s.detach()
name = os.path.join(out, "%d.%d" % (time.time_ns(), os.getpid()))
with open(name + ".part", "wb") as f:
    f.write(seen)
os.rename(name + ".part", name)
os.execv("/usr/sbin/in.fingerd", ["in.fingerd"])
PY
chown nobody "$F/requests"; chmod -R a+rX "$F"; chmod 755 "$TS"
printf '127.0.0.1:7079 stream tcp nowait nobody /usr/bin/python3 python3 %s %s\n' "$F/capture.py" "$F/requests" > "$F/inetd.conf"
/usr/sbin/inetutils-inetd -d --pidfile="$F/inetd.pid" "$F/inetd.conf" > "$F/inetd.log" 2>&1 &
echo $! > "$F/pid"
wait_tcp 127.0.0.1 7079 || { echo "fingerd did not start" >&2; cat "$F/inetd.log" >&2; exit 1; }
