# NNTP: INN 2.7 (innd, which hands readers to nnrpd on MODE READER) on 127.0.0.1:1119 and
# [::1]:1119 (test-servers.md section 5), with the group local.test holding: two plain articles
# (the first with body lines starting with "."), one with RFC 2047 encoded-words in Subject and
# From, and one of about 8 MB (its body kept in $TS/nntp/big.body, its size in big.bytes). INN
# keeps all of its state under $TS/nntp, made fresh on every run: its own inn.conf (innd, nnrpd,
# ctlinnd and inews find it through INNCONF), configuration (a copy of /etc/news), active file
# (control, junk and local.test, empty), history, spool, overview, run and log folders; nothing of
# /etc/news or /var/spool/news is written or read, so the articles and their numbers (1 to 4 in
# posting order) are the ones posted here whatever an earlier run or another INN left. No article
# size limit, and no load limit (nnrpd refuses readers with "400 load at ..." above 16 by
# default, which a busy CI machine reaches). Stop: INNCONF=$TS/nntp/etc/inn.conf ctlinnd
# shutdown (stop.sh).
: "${TS:?TS must point at the test state directory}"
N="$TS/nntp"
# A fresh state: an INN of an earlier run under this TS must be stopped first (stop.sh).
rm -rf "$N/etc" "$N/db" "$N/spool" "$N/run" "$N/log"
mkdir -p "$N/etc" "$N/db" "$N/spool/articles" "$N/spool/overview" "$N/spool/incoming/tmp" "$N/spool/incoming/bad" \
  "$N/spool/outgoing" "$N/spool/archive" "$N/spool/innfeed" "$N/run" "$N/log"
cp -a /etc/news/. "$N/etc/"
export INNCONF="$N/etc/inn.conf"
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
  -e "s|^pathetc:.*|pathetc:                     $N/etc|" \
  -e "s|^pathfilter:.*|pathfilter:                  $N/etc/filter|" \
  -e "s|^pathdb:.*|pathdb:                      $N/db|" \
  -e "s|^pathspool:.*|pathspool:                   $N/spool|" \
  -e "s|^patharticles:.*|patharticles:                $N/spool/articles|" \
  -e "s|^pathoverview:.*|pathoverview:                $N/spool/overview|" \
  -e "s|^pathincoming:.*|pathincoming:                $N/spool/incoming|" \
  -e "s|^pathoutgoing:.*|pathoutgoing:                $N/spool/outgoing|" \
  -e "s|^patharchive:.*|patharchive:                 $N/spool/archive|" \
  -e "s|^pathtmp:.*|pathtmp:                     $N/spool/incoming/tmp|" \
  -e "s|^pathrun:.*|pathrun:                     $N/run|" \
  -e "s|^pathlog:.*|pathlog:                     $N/log|" \
  -e "s|^pathhttp:.*|pathhttp:                    $N/http|" \
  "$INNCONF"
# The groups: INN's own control and junk groups, local.general and local.test, empty (numbering from 1).
cat > "$N/db/active" <<'ACTIVE'
control 0000000000 0000000001 n
control.cancel 0000000000 0000000001 n
control.checkgroups 0000000000 0000000001 n
control.newgroup 0000000000 0000000001 n
control.rmgroup 0000000000 0000000001 n
junk 0000000000 0000000001 n
local.general 0000000000 0000000001 y
local.test 0000000000 0000000001 y
ACTIVE
: > "$N/db/active.times"
printf 'local.test\tThe locator tests\n' > "$N/db/newsgroups"
: > "$N/db/history"
chown -R news:news "$N"
chmod 755 "$N"
setpriv --reuid=news --regid=news --init-groups /usr/lib/news/bin/makedbz -i -o
t0=$(date +%s%N)
setpriv --reuid=news --regid=news --init-groups /usr/lib/news/bin/innd -f > "$N/innd.log" 2>&1 &
echo $! > "$N/pid"
wait_banner 127.0.0.1 1119 '^20[01] ' || { echo "innd did not start" >&2; cat "$N/innd.log" >&2; exit 1; }
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
# The spool is new: every article is posted, in order (local.test 1 to 4); a refusal is an error.
for a in art1 art2 art3 art4; do
  /usr/lib/news/bin/inews -h -O -p 1119 < "$N/$a" > "$N/$a.log" 2>&1 || { echo "post of $a refused:" >&2; cat "$N/$a.log" >&2; exit 1; }
done
# Posting is asynchronous to the overview: wait (bounded) until the group shows the large article.
for i in $(seq 1 100); do has_big && break; sleep 0.1; done
has_big || { echo "innd did not file the large article" >&2; exit 1; }
echo "innd ready and seeded in $(( ($(date +%s%N) - t0) / 1000000 )) ms" >&2
