# SMTP (mailto:, RFC 1738 3.5), two real servers (test/data/docs/test-servers.md section 7):
#   127.0.0.1:2525  OpenSMTPD, plain SMTP (no STARTTLS, no AUTH), delivering to
#                   ~tester/Maildir/new/ for local users and @example.test, never relaying.
#   127.0.0.1:2526  aiosmtpd (Debian's python3-aiosmtpd): STARTTLS offered, AUTH PLAIN/LOGIN
#                   required after it (tester / secret), with a self-signed certificate for
#                   mail.example.test and 127.0.0.1 made here ($TS/smtp/ca.pem is what a client
#                   trusts); each accepted message is passed on to OpenSMTPD on 2525, so it lands
#                   in the same Maildir, and OpenSMTPD's own refusal is the reply to DATA.
# Why not OpenSMTPD for STARTTLS too: Debian 12's OpenSMTPD 6.8.0p2 fails every TLS handshake
# under OpenSSL 3 ("io-error: ... EVP lib" or "internal error", with an RSA or an ECDSA key;
# upstream issues OpenSMTPD#1171 and #1239), so its "listen ... tls pki ... auth" cannot serve.
# smtpd needs root (it drops privileges itself); one instance, with the system-wide queue.
: "${TS:?TS must point at the test state directory}"
S="$TS/smtp"; mkdir -p "$S"
id tester >/dev/null 2>&1 || useradd -m -s /bin/sh tester
install -d -o tester -g tester -m 700 ~tester/Maildir ~tester/Maildir/new ~tester/Maildir/cur ~tester/Maildir/tmp
echo ~tester/Maildir > "$S/maildir" # where the tests read the delivered messages
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=mail.example.test \
  -addext subjectAltName=DNS:mail.example.test,IP:127.0.0.1 \
  -keyout "$S/key.pem" -out "$S/ca.pem" >/dev/null 2>&1 || { echo "openssl req failed" >&2; exit 1; }
chmod 600 "$S/key.pem"; chmod 644 "$S/ca.pem"
cat > "$S/smtpd.conf" <<'CONF'
listen on 127.0.0.1 port 2525 hostname mail.example.test
action "local" maildir
match from any for local action "local"
match from any for domain "example.test" action "local"
CONF
/usr/sbin/smtpd -n -f "$S/smtpd.conf" >"$S/check.log" 2>&1 || { echo "smtpd.conf invalid" >&2; cat "$S/check.log" >&2; exit 1; }
/usr/sbin/smtpd -d -f "$S/smtpd.conf" > "$S/smtpd.log" 2>&1 &
echo $! > "$S/pid"
wait_banner 127.0.0.1 2525 '^220 ' || { echo "smtpd did not start" >&2; cat "$S/smtpd.log" >&2; exit 1; }
cat > "$S/submit.py" <<'PY'
import asyncio, smtplib, ssl, sys
from aiosmtpd.smtp import SMTP, AuthResult
state = sys.argv[1]
tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
tls.load_cert_chain(state + "/ca.pem", state + "/key.pem")
def authenticate(server, session, envelope, mechanism, data):
    ok = mechanism in ("PLAIN", "LOGIN") and data.login == b"tester" and data.password == b"secret"
    return AuthResult(success=ok, handled=False)
class Relay:
    async def handle_DATA(self, server, session, envelope):
        try:
            with smtplib.SMTP("127.0.0.1", 2525, timeout=10) as s:
                s.sendmail(envelope.mail_from, envelope.rcpt_tos, envelope.original_content)
        except smtplib.SMTPResponseException as e:
            return "%d %s" % (e.smtp_code, e.smtp_error.decode("utf-8", "replace"))
        except smtplib.SMTPRecipientsRefused:
            return "550 5.1.1 the recipient was refused by 127.0.0.1:2525"
        except OSError:
            return "451 4.3.0 127.0.0.1:2525 could not be reached"
        return "250 2.0.0 Ok: passed on to 127.0.0.1:2525"
async def main():
    server = await asyncio.get_running_loop().create_server(
        lambda: SMTP(Relay(), hostname="mail.example.test", tls_context=tls, require_starttls=True,
                     authenticator=authenticate, auth_required=True, auth_require_tls=True),
        "127.0.0.1", 2526)
    async with server:
        await server.serve_forever()
asyncio.run(main())
PY
/usr/bin/python3 "$S/submit.py" "$S" > "$S/submit.log" 2>&1 &
echo $! > "$S/submit.pid"
wait_banner 127.0.0.1 2526 '^220 ' || { echo "aiosmtpd did not start" >&2; cat "$S/submit.log" >&2; exit 1; }
