# HTTP: nginx on 127.0.0.1:8080 and [::1]:8080 (test-servers.md section 8).
: "${TS:?TS must point at the test state directory}"
H="$TS/http"; mkdir -p "$H/root/dir" "$H/tmp"
echo 'plain text' > "$H/root/hello.txt"; echo 'spaced' > "$H/root/with space.txt"; echo 'inner' > "$H/root/dir/inner.txt"
# A document with anchors, for `locator check`'s fragments of http: documents (test/cli/check-markup.test.ts).
printf '<!DOCTYPE html>\n<html><head><title>anchors</title></head>\n<body><h1 id="present">here</h1><a name="named">n</a></body></html>\n' > "$H/root/anchors.html"
# A small site for the crawl of `locator check --recursive` (test/check/crawl.test.ts): pages in
# HTML and Markdown, a broken link, a folder robots.txt disallows, links to the FTP and Gopher
# servers, and a link in verbatim text.
mkdir -p "$H/root/site/sub" "$H/root/site/private"
printf 'User-agent: *\nDisallow: /site/private/\n' > "$H/root/robots.txt"
cat > "$H/root/site/index.html" <<'HTML'
<!DOCTYPE html>
<html><head><title>site</title></head><body>
<a href="page1.html">one</a> <a href="page2.md">two</a> <a href="missing.html">gone</a>
<a href="private/secret.html">private</a>
<a href="ftp://127.0.0.1:2121/pub/unix.txt">ftp</a> <a href="gopher://127.0.0.1:7070/0/hello.txt">gopher</a>
<pre>http://127.0.0.1:8080/site/verbatim-missing.html</pre>
</body></html>
HTML
printf '<!DOCTYPE html>\n<html><body><a href="index.html">home</a> <a href="sub/deep.html">deep</a></body></html>\n' > "$H/root/site/page1.html"
printf '# Two\n\n[deep](sub/deep.html) and [one](page1.html)\n\n    http://127.0.0.1:8080/site/code-missing.html\n' > "$H/root/site/page2.md"
printf '<!DOCTYPE html>\n<html><body><a href="../page1.html">up</a></body></html>\n' > "$H/root/site/sub/deep.html"
printf '<!DOCTYPE html>\n<html><body>secret</body></html>\n' > "$H/root/site/private/secret.html"
chmod -R a+rX "$H"
cat > "$H/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $H/nginx.pid;
error_log stderr notice;
events { worker_connections 64; }
http {
    include /etc/nginx/mime.types;
    access_log $H/access.log;
    client_body_temp_path $H/tmp/body;
    proxy_temp_path $H/tmp/proxy;
    fastcgi_temp_path $H/tmp/fastcgi;
    uwsgi_temp_path $H/tmp/uwsgi;
    scgi_temp_path $H/tmp/scgi;
    server {
        listen 127.0.0.1:8080;
        listen [::1]:8080;
        root $H/root;
        autoindex on;
        location = /redirect { return 302 /hello.txt; }
    }
}
CONF
/usr/sbin/nginx -p "$H" -c "$H/nginx.conf" > "$H/nginx.log" 2>&1 &
echo $! > "$H/pid"
wait_tcp 127.0.0.1 8080 || { echo "nginx did not start" >&2; cat "$H/nginx.log" >&2; exit 1; }
