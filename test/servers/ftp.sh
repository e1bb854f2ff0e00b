# FTP: vsftpd, anonymous, read-only, passive mode on 127.0.0.1:2121 (test-servers.md section 3).
: "${TS:?TS must point at the test state directory}"
mkdir -p "$TS/ftp/root/pub/nested/deeper"
(
  cd "$TS/ftp/root"
  printf 'Hello from FTP\r\nLine two\r\n' > hello.txt
  printf 'unix line 1\nunix line 2\n'   > pub/unix.txt
  echo 'file with a space'              > 'pub/with space.txt'
  echo 'nested file'                    > pub/nested/deeper/inner.txt
  head -c "${LOCATOR_BIG_BYTES:-52428800}" /dev/urandom > pub/big.bin
  sha256sum pub/big.bin | cut -d' ' -f1 > "$TS/ftp/big.sha256"
)
chmod 755 "$TS" "$TS/ftp"; chmod -R a+rX,go-w "$TS/ftp/root"
cat > "$TS/ftp/vsftpd.conf" <<CONF
listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port=2121
background=NO
anonymous_enable=YES
no_anon_password=NO
anon_root=$TS/ftp/root
local_enable=NO
write_enable=NO
anon_upload_enable=NO
anon_mkdir_write_enable=NO
anon_other_write_enable=NO
ascii_download_enable=YES
pasv_enable=YES
pasv_address=127.0.0.1
pasv_min_port=30000
pasv_max_port=30100
port_enable=YES
connect_from_port_20=NO
secure_chroot_dir=/var/run/vsftpd/empty
pam_service_name=vsftpd
seccomp_sandbox=NO
dirmessage_enable=NO
xferlog_enable=YES
log_ftp_protocol=YES
vsftpd_log_file=$TS/ftp/vsftpd.log
ftpd_banner=Test FTP server ready
CONF
mkdir -p /var/run/vsftpd/empty
/usr/sbin/vsftpd "$TS/ftp/vsftpd.conf" > "$TS/ftp/stderr.log" 2>&1 &
echo $! > "$TS/ftp/pid"
wait_banner 127.0.0.1 2121 '^220 ' || { echo "FTP server did not start" >&2; cat "$TS/ftp/stderr.log" >&2; exit 1; }
