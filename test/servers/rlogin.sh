# rlogin (RFC 1282): Debian's in.rlogind (rsh-redone-server) behind inetutils-inetd on
# 127.0.0.1:5513, logging in the test account of test/data/docs/test-servers.md section 6
# (tester/secret). ~tester/.rhosts trusts "localhost root" and "127.0.0.1 root", so a client that
# runs as root and connects from a reserved port (512-1023) is let in without a password
# (pam_rhosts); any other local user gets the password prompt of pam_unix.
: "${TS:?TS must point at the test state directory}"
R="$TS/rlogin"; mkdir -p "$R"
id tester >/dev/null 2>&1 || useradd -m -s /bin/sh tester
echo 'tester:secret' | chpasswd
printf 'localhost root\n127.0.0.1 root\n' > ~tester/.rhosts
chown tester: ~tester/.rhosts; chmod 600 ~tester/.rhosts
printf '127.0.0.1:5513 stream tcp nowait root /usr/sbin/in.rlogind in.rlogind\n' > "$R/inetd.conf"
/usr/sbin/inetutils-inetd -d --pidfile="$R/inetd.pid" "$R/inetd.conf" > "$R/inetd.log" 2>&1 &
echo $! > "$R/pid"
wait_tcp 127.0.0.1 5513 || { echo "rlogind did not start" >&2; cat "$R/inetd.log" >&2; exit 1; }
