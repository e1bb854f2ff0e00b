#!/usr/bin/env node
// `npm test`: compiles src and test (type-checking both), then runs every test file with
// Node's own test runner. Extra arguments are passed to `node --test` (e.g. a file filter).
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

rmSync('.build', { recursive: true, force: true });
run('npm', ['run', '--silent', 'build']);
run(process.execPath, [tsc, '-p', 'tsconfig.test.json']);

function find(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) find(p, out);
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}
const filter = process.argv.slice(2);
const files = find('.build/test').filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)));
// The client tests run against real servers on loopback (test/servers/*.sh, after
// test/data/docs/test-servers.md): started here, stopped when the tests end, whatever happens.
const needServers = files.some(
  (f) =>
    [
      'clients',
      'gateway',
      'archive',
      join('cli', 'send'),
      join('cli', 'connect'),
      join('cli', 'serve'),
      join('cli', 'check'),
    ].some((d) => f.includes(join('test', d))) ||
    f.includes('fetch') ||
    f.includes(join('test', 'bench.test')),
);
// The Dask driver's test needs Debian's python3-distributed, which the servers' install step
// installs with them (test/servers/install.sh).
if (!needServers && files.some((f) => f.includes('dask') || f.includes('bench.test'))) {
  const r = spawnSync('bash', ['test/servers/install.sh'], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
let ts = null;
if (needServers && !process.env.LOCATOR_TEST_SERVERS) {
  const r = spawnSync('bash', ['test/servers/start.sh'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) {
    console.error('could not start the test servers (see above); the client tests need them');
    process.exit(1);
  }
  ts = r.stdout.trim();
  process.env.LOCATOR_TEST_SERVERS = ts;
}
const stop = () => {
  if (ts !== null) spawnSync('bash', ['test/servers/stop.sh', ts], { stdio: 'inherit' });
  ts = null;
};
process.on('SIGINT', () => {
  stop();
  process.exit(130);
});
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
stop();
process.exit(r.status ?? 1);
