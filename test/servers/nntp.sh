# NNTP: INN 2.7 (innd, which hands readers to nnrpd on MODE READER) on 127.0.0.1:1119 and
# [::1]:1119 (test-servers.md section 5), with the group local.test holding: two plain articles
# (the first with body lines starting with "."), one with RFC 2047 encoded-words in Subject and
# From, and one of about 8 MB (its body kept in $TS/nntp/big.body, its size in big.bytes). INN
# keeps its state in /etc/news and /var/spool/news: the articles persist between runs (posting a
# Message-ID again is refused as a duplicate, which is fine). No article size limit, and no load
# limit (nnrpd refuses readers with "400 load at ..." above 16 by default, which a busy CI machine
# reaches). Stop: ctlinnd shutdown (stop.sh).
: "${TS:?TS must point at the test state directory}"
N="$TS/nntp"; mkdir -p "$N"
sed -i \
  -e 's/^#*domain:.*/domain:                      example.test/' \
  -e 's/^#*server:.*/server:                      127.0.0.1/' \
  -e 's/^pathhost:.*/pathhost:                    news.example.test/' \
  -e 's/^port:.*/port:                        1119/' \
  -e 's/^#*bindaddress:.*/bindaddress:                 127.0.0.1/' \
  -e 's/^#*bindaddress6:.*/bindaddress6:                "::1"/' \
  -e 's/^nnrpdpostport:.*/nnrpdpostport:               1119/' \
  -e 's/^maxartsize:.*/maxartsize:                  0/' \
  -e 's/^localmaxartsize:.*/localmaxartsize:             0/' \
  -e 's/^#*nnrpdloadlimit:.*/nnrpdloadlimit:              0/' \
  /etc/news/inn.conf
install -d -o news -g news /run/news /var/log/news
t0=$(date +%s%N)
setpriv --reuid=news --regid=news --init-groups /usr/lib/news/bin/innd -f > "$N/innd.log" 2>&1 &
echo $! > "$N/pid"
wait_banner 127.0.0.1 1119 '^20[01] ' || { echo "innd did not start" >&2; cat "$N/innd.log" >&2; exit 1; }
/usr/lib/news/bin/ctlinnd -s newgroup local.test y tester || true
cat > "$N/art1" <<'ART'
From: Tester <tester@example.test>
Newsgroups: local.test
Subject: First test article
Message-ID: <first.1@example.test>

Hello from the first article.
.A line starting with a dot.
..Two dots.
.
Last line.
ART
cat > "$N/art2" <<'ART'
From: Tester <tester@example.test>
Newsgroups: local.test
Subject: Second test article
Message-ID: <second.2@example.test>
References: <first.1@example.test>

Second article body.
ART
cat > "$N/art3" <<'ART'
From: =?ISO-8859-1?Q?J=F6rg_M=FCller?= <joerg@example.test>
Newsgroups: local.test
Subject: =?UTF-8?B?R3LDvMOfZSBhdXM=?= =?UTF-8?Q?_K=C3=B6ln?=
Message-ID: <umlaut.3@example.test>
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: 8bit

Grüße.
ART
# The large article: numbered lines of 72 characters, every 97th starting with "." (dot-stuffed
# on the wire), about 8 MB in all: more than the loopback socket buffers hold, so that a test
# can see the client stop reading while its consumer does.
if [ ! -s "$N/big.body" ]; then
  awk 'BEGIN { for (i = 1; i <= 110000; i++) { p = (i % 97 == 0) ? "." : ""; printf "%s%07d %s\n", p, i, "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz" } }' > "$N/big.body"
fi
wc -c < "$N/big.body" | tr -d ' ' > "$N/big.bytes"
{ printf 'From: Tester <tester@example.test>\nNewsgroups: local.test\nSubject: A large article\nMessage-ID: <big.6@example.test>\n\n'; cat "$N/big.body"; } > "$N/art4"
has_big() { # true once INN has the large article (posted last)
  (printf 'MODE READER\r\n'; sleep 0.3; printf 'STAT <big.6@example.test>\r\nQUIT\r\n') | timeout 5 nc -w 3 127.0.0.1 1119 2>/dev/null | grep -q '^223 '
}
# The spool persists: when the large article is there, so are the others.
if ! has_big; then
  for a in art1 art2 art3 art4; do
    /usr/lib/news/bin/inews -h -O -p 1119 < "$N/$a" > "$N/$a.log" 2>&1 || echo "post of $a refused (a duplicate from an earlier run?)" >&2
  done
  # Posting is asynchronous to the overview: wait (bounded) until the group shows the large article.
  for i in $(seq 1 100); do has_big && break; sleep 0.1; done
fi
echo "innd ready and seeded in $(( ($(date +%s%N) - t0) / 1000000 )) ms" >&2
