# HTTP: nginx on 127.0.0.1:8080 and [::1]:8080 (test-servers.md section 8).
: "${TS:?TS must point at the test state directory}"
H="$TS/http"; mkdir -p "$H/root/dir" "$H/tmp"
echo 'plain text' > "$H/root/hello.txt"; echo 'spaced' > "$H/root/with space.txt"; echo 'inner' > "$H/root/dir/inner.txt"
# A document with anchors, for `locator check`'s fragments of http: documents (test/cli/check-markup.test.ts).
printf '<!DOCTYPE html>\n<html><head><title>anchors</title></head>\n<body><h1 id="present">here</h1><a name="named">n</a></body></html>\n' > "$H/root/anchors.html"
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
