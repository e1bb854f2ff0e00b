// The access log (docs/gateway.md, "Access log"): one line per request in the Combined Log
// Format, the client as resolved through a trusted proxy, passwords masked in the request line
// and the Referer however they are encoded. Raw requests from chosen loopback addresses.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startGateway } from '../../src/gateway/server.js';
import { clfTime, maskTarget } from '../../src/gateway/access-log.js';
import { until } from './raw.js';

const COMBINED =
  /^(\S+) - - \[(\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000)\] "((?:[^"\\]|\\.)*)" (\d{3}) (\d+|-) "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)"$/;

function get(
  port: number,
  path: string,
  from: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; length: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers, localAddress: from, agent: false }, (res) => {
      let length = 0;
      res.on('data', (d: Buffer) => (length += d.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, length }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

test('one Combined Log Format line per request: the resolved client, status, body octets, Referer, User-Agent; no password', async () => {
  const lines: string[] = [];
  const g = await startGateway({ port: 0, trustProxy: ['127.0.0.5'], accessLog: (l) => lines.push(l) });
  try {
    const secretUrl = 'ftp://joe:s3cret@127.0.0.1:2121/pub/hello.txt';
    const a = await get(g.port, `/?url=${encodeURIComponent(secretUrl)}&view=explain`, '127.0.0.5', {
      'X-Forwarded-For': '198.51.100.1, 203.0.113.9',
      Referer: `http://127.0.0.1:${g.port}/?url=${encodeURIComponent('ftp://joe:s3cret@127.0.0.1:2121/pub/')}`,
      'User-Agent': 'Lynx/2.9 "quoted"',
    });
    const b = await get(g.port, '/robots.txt', '127.0.0.6', { 'X-Forwarded-For': '192.0.2.77' });
    assert.ok(await until(() => lines.length === 2, 2000), lines.join('\n'));
    const [la, lb] = lines.map((l) => COMBINED.exec(l));
    assert.ok(la && lb, lines.join('\n'));
    assert.equal(la[1], '203.0.113.9', 'the client the trusted proxy named');
    assert.match(
      la[3],
      /^GET \/\?url=ftp%3A%2F%2Fjoe%3A\*\*\*\*%40127\.0\.0\.1%3A2121%2Fpub%2Fhello\.txt&view=explain HTTP\/1\.1$/,
    );
    assert.equal(la[4], String(a.status));
    assert.equal(la[5], String(a.length));
    assert.match(la[6], /joe%3A\*\*\*\*%40/);
    assert.equal(la[7], 'Lynx/2.9 \\"quoted\\"');
    assert.doesNotMatch(lines.join('\n'), /s3cret/);
    assert.equal(lb[1], '127.0.0.6', 'not a trusted proxy: its header is not read');
    assert.equal(lb[3], 'GET /robots.txt HTTP/1.1');
    assert.deepEqual([lb[4], lb[5]], ['200', String(b.length)]);
    assert.equal(lb[6], '-');
  } finally {
    await g.close();
  }
});

test('maskTarget: passwords masked in absolute targets and url parameters, however encoded; clfTime in UTC', () => {
  assert.equal(maskTarget('ftp://u:pw@h/f'), 'ftp://u:****@h/f');
  assert.equal(maskTarget('/?url=ftp://u:pw@h/f'), `/?url=${encodeURIComponent('ftp://u:****@h/f')}`);
  assert.equal(
    maskTarget('/?view=raw&URL=ftp%3a%2f%2fu%3apw%40h%2Ff'),
    `/?view=raw&URL=${encodeURIComponent('ftp://u:****@h/f')}`,
  );
  assert.equal(
    maskTarget('/?url=gopher%3A%2F%2Fh%2F1%2F'),
    '/?url=gopher%3A%2F%2Fh%2F1%2F',
    'nothing to mask: as it was',
  );
  assert.doesNotMatch(maskTarget('/?url=ftp://u:pw@h/%E0%A4%A'), /pw/);
  assert.equal(clfTime(new Date(Date.UTC(2000, 9, 10, 13, 55, 36))), '[10/Oct/2000:13:55:36 +0000]');
});
