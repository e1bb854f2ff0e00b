// The gateway of bench/gateway-public.bench.mjs in a process of its own (one Node process, as
// `locator serve` runs): started with the options given as JSON in argv[2]; prints its port,
// then, on "stats" read from standard input, the cache's counters as one JSON line.
import { startGateway } from '../dist/gateway/index.js';
import { CACHES } from '../dist/gateway/server.js';

const g = await startGateway(JSON.parse(process.argv[2]));
console.log(JSON.stringify({ port: g.port }));
process.stdin.setEncoding('utf8');
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    if (line === 'stats') console.log(JSON.stringify(CACHES.get(g)?.stats ?? null));
  }
});
process.stdin.on('end', () => void g.close().then(() => process.exit(0)));
