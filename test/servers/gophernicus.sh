# Plain Gopher: gophernicus behind inetutils-inetd on 127.0.0.1:7071 (test-servers.md section 4).
: "${TS:?TS must point at the test state directory}"
N="$TS/gophernicus"; mkdir -p "$N/root/files" "$N/root/cgi-bin"
printf 'Hello from Gophernicus.\n' > "$N/root/hello.txt"
echo 'spaced' > "$N/root/files/with space.txt"
printf '%s\n' "Welcome to the gophernicus test root" \
  "0Hello text	/hello.txt" "1Files	/files" "7Search	/cgi-bin/search" > "$N/root/gophermap"
cat > "$N/root/cgi-bin/search" <<'SH'
#!/bin/sh
printf 'iquery=%s\tfake\t(NULL)\t0\r\n' "$QUERY_STRING"
printf '0Hello text\t/hello.txt\t127.0.0.1\t7071\r\n.\r\n'
SH
chmod 755 "$N/root/cgi-bin/search"; chmod -R a+rX "$N"; chmod 755 "$TS"
printf '127.0.0.1:7071 stream tcp nowait _gophernicus /usr/sbin/gophernicus gophernicus -h 127.0.0.1 -p 7071 -r %s -nv -ns\n' "$N/root" > "$N/inetd.conf"
/usr/sbin/inetutils-inetd -d --pidfile="$N/inetd.pid" "$N/inetd.conf" > "$N/inetd.log" 2>&1 &
echo $! > "$N/pid"
wait_tcp 127.0.0.1 7071 || { echo "gophernicus did not start" >&2; cat "$N/inetd.log" >&2; exit 1; }
