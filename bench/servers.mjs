// Servers the benchmarks start for themselves: a free loopback port, and a private nginx serving a
// folder (bench/crawl.bench.mjs, bench/archive.bench.mjs).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A port free on 127.0.0.1 at the time of asking. */
export function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

/**
 * A private nginx serving dir/site on a free port (access log off), stopped by the function it
 * pushes on `cleanups`; `serverLines` go into its server block. Resolves the port once
 * /robots.txt answers.
 */
export async function siteNginx(dir, cleanups, serverLines = '') {
  const port = await freePort();
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log notice;\n` +
      `events { worker_connections 512; }\nhttp {\n include /etc/nginx/mime.types;\n access_log off;\n` +
      ` client_body_temp_path ${dir}/tmp/body;\n proxy_temp_path ${dir}/tmp/proxy;\n fastcgi_temp_path ${dir}/tmp/fastcgi;\n` +
      ` uwsgi_temp_path ${dir}/tmp/uwsgi;\n scgi_temp_path ${dir}/tmp/scgi;\n` +
      ` server {\n  listen 127.0.0.1:${port};\n  root ${dir}/site;\n${serverLines} }\n}\n`,
  );
  const p = spawn('/usr/sbin/nginx', ['-p', dir, '-c', conf], { stdio: 'ignore' });
  cleanups.push(() => p.kill('SIGTERM'));
  for (let i = 0; i < 100; i++) {
    const r = await fetch(`http://127.0.0.1:${port}/robots.txt`).catch(() => null);
    if (r?.ok) return port;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('bench: nginx did not start');
}
