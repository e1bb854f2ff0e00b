# Telnet (RFC 854): inetutils-telnetd behind inetutils-inetd on 127.0.0.1:2323, running the real
# /bin/login (test-servers.md section 6). The local account tester / secret is made (or its
# password reset) here; telnetd must run as root to start login.
: "${TS:?TS must point at the test state directory}"
T="$TS/telnet"; mkdir -p "$T"
id tester >/dev/null 2>&1 || useradd -m -s /bin/sh tester
echo 'tester:secret' | chpasswd
printf '127.0.0.1:2323 stream tcp nowait root /usr/sbin/telnetd telnetd -h\n' > "$T/inetd.conf"
/usr/sbin/inetutils-inetd -d --pidfile="$T/inetd.pid" "$T/inetd.conf" > "$T/inetd.log" 2>&1 &
echo $! > "$T/pid"
wait_tcp 127.0.0.1 2323 || { echo "telnetd did not start" >&2; cat "$T/inetd.log" >&2; exit 1; }
