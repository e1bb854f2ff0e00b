# Gopher and Gopher+: pygopherd on 127.0.0.1:7070 (test-servers.md section 4).
: "${TS:?TS must point at the test state directory}"
G="$TS/gopher"; mkdir -p "$G/root/files/sub"
printf 'Hello from Gopher.\nSecond line.\n'                          > "$G/root/hello.txt"
printf 'A short abstract for hello.txt.\n'                          > "$G/root/hello.txt.abstract"
printf 'Readme in files/.\n'                                        > "$G/root/files/readme.txt"
printf 'Form target document.\n'                                    > "$G/root/files/form.txt"
printf 'Ask: What is your name?\nChoose: Pick a colour\tred\tgreen\tblue\n' > "$G/root/files/form.txt.ask"
echo 'spaced'                                                        > "$G/root/files/with space.txt"
echo 'nested'                                                        > "$G/root/files/sub/nested.txt"
head -c 4096 /dev/zero                                               > "$G/root/files/data.bin"
# Hand-made gophermaps served as they are (asked for as menus, type 1): an info line with empty
# fields first, and a first line with no TAB at all (test/clients/gopher/lenient-menus.test.ts).
printf 'iWelcome\t\t\t\r\n0Hello text\t/hello.txt\t127.0.0.1\t7070\r\n.\r\n'           > "$G/root/handmade.txt"
printf 'Welcome to my hole\r\n0Hello text\t/hello.txt\t127.0.0.1\t7070\r\n.\r\n'      > "$G/root/notab.txt"
head -c "${LOCATOR_BIG_BYTES:-52428800}" /dev/urandom > "$G/root/big.bin"
sha256sum "$G/root/big.bin" | cut -d" " -f1 > "$G/big.sha256"
printf '%s\n' \
  "iWelcome to the test gopher server	fake	(NULL)	0" \
  "0Hello text	/hello.txt" \
  "1Files directory	/files" \
  "7Search the test index	/search.sh" \
  "hAn HTTP link	URL:http://127.0.0.1:8080/" \
  "9Binary file	/files/data.bin" > "$G/root/gophermap"
cat > "$G/root/search.sh" <<'SH'
#!/bin/sh
# Type-7 search: the query arrives in $SEARCHREQUEST; print a menu.
printf 'iResults for: %s\tfake\t(NULL)\t0\r\n' "${SEARCHREQUEST:-}"
printf '0Hello text\t/hello.txt\t%s\t%s\r\n' "$SERVER_NAME" "$SERVER_PORT"
printf '.\r\n'
SH
chmod 755 "$G/root/search.sh"; chmod -R a+rX "$G"
cat > "$G/pygopherd.conf.in" <<'CONF'
[pygopherd]
detach = no
servername = 127.0.0.1
interface = 127.0.0.1
port = 7070
servertype = ForkingTCPServer
timeout = 60
abstract_headers = off
abstract_entries = never
tracebacks = yes
usechroot = no
setuid = gopher
setgid = gopher
enable_tls = no
root = @ROOT@
mimetypes = /etc/mime.types
encoding = list(mimetypes.encodings_map.items()) + [('.bz2', 'bzip2')]

[logger]
logmethod = file

[GopherEntry]
defaultmimetype = text/plain
mapping = [['text/html', 'h'], ['text/.+', '0'], ['image/gif', 'g'], ['image/.+', 'I'], ['application/gopher-menu', '1'], ['application/gopher\\+-menu', '1'], ['application/.+', '9'], ['.*', '0']]
eaexts = {'.abstract': 'ABSTRACT', '.keywords': 'KEYWORDS', '.ask': 'ASK', '.3d': '3D'}

[handlers.HandlerMultiplexer]
handlers = [url.HTMLURLHandler, gophermap.BuckGophermapHandler, scriptexec.ExecHandler, UMN.UMNDirHandler, html.HTMLFileTitleHandler, file.FileHandler]

[handlers.file.CompressedFileHandler]
decompressors = {}
decompresspatt = .*

[handlers.dir.DirHandler]
ignorepatt = /\.cache|/gophermap$|\.abstract$|\.keywords$|\.ask$|\.3d$|~$
cachetime = 0
cachefile = .cache.pygopherd.dir

[handlers.UMN.UMNDirHandler]
extstrip = none

[handlers.ZIP.ZIPHandler]
enabled = false
pattern = \.zip$

[protocols.ProtocolMultiplexer]
protocols = [gopherp.GopherPlusProtocol, rfc1436.GopherProtocol]

[protocols.gopherp.GopherPlusProtocol]
admin = Test Admin <admin@example.test>
CONF
sed "s#@ROOT@#$G/root#" "$G/pygopherd.conf.in" > "$G/pygopherd.conf"
/usr/sbin/pygopherd "$G/pygopherd.conf" > "$G/pygopherd.log" 2>&1 &
echo $! > "$G/pid"
wait_tcp 127.0.0.1 7070 || { echo "pygopherd did not start" >&2; cat "$G/pygopherd.log" >&2; exit 1; }
