// The generating server of bench/crawl.bench.mjs: an HTTP server on a free loopback port that
// makes up /p/<n>.html for n < PAGES (no disk), each linking to 2n+1, 2n+2 (a binary tree: every
// page within depth log2(PAGES)) and two pseudo-random others; /robots.txt disallows /private/,
// and page 0 links to /private/0.html. With LOG=1 it keeps the arrival time of every request
// (GET /__log answers them as JSON, "ms path" lines). Prints its port on standard output.
import { createServer } from 'node:http';

const PAGES = Number(process.argv[2] ?? 1000);
const LOG = process.argv[3] === '1';
const log = [];
const link = (n) => `<a href="/p/${n}.html">${n}</a>\n`;

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url === '/__log') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(log.join('\n'));
    return;
  }
  if (LOG) log.push(`${performance.timeOrigin + performance.now()} ${req.method} ${url}`);
  if (url === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('User-agent: *\nDisallow: /private/\n');
    return;
  }
  const m = /^\/p\/(\d+)\.html$/.exec(url);
  const n = m ? Number(m[1]) : -1;
  if (n < 0 || n >= PAGES) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found\n');
    return;
  }
  let body = `<!DOCTYPE html>\n<html><head><title>${n}</title></head><body>\n`;
  for (const k of [2 * n + 1, 2 * n + 2, (n * 7919 + 13) % PAGES, (n * 104729 + 7) % PAGES])
    if (k < PAGES) body += link(k);
  if (n === 0) body += '<a href="/private/0.html">private</a>\n';
  body += '</body></html>\n';
  res.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
