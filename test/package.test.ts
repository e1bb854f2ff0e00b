// It installs like a package: the tarball `npm pack` makes (of the dist that `npm test` has just
// built) installed into an empty folder, with no network (the package has no runtime
// dependency): the command runs there, each public entry loads, and a consumer type-checks
// against the shipped .d.ts files.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ROOT } from './helpers.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const DIR = mkdtempSync(join(tmpdir(), 'locator-package-'));
after(() => rmSync(DIR, { recursive: true, force: true }));
const APP = join(DIR, 'app');

function npm(args: string[], cwd: string): string {
  // npm's own scripts are not run: `prepare` would build again what `npm test` built.
  return execFileSync('npm', [...args, '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function inApp(cmd: string, args: string[]) {
  return spawnSync(cmd, args, { cwd: APP, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: DIR } });
}

test('npm pack, then npm install of the tarball into an empty folder, offline', () => {
  npm(['pack', '--pack-destination', DIR], ROOT);
  const tarball = readdirSync(DIR).find((f) => f.endsWith('.tgz'));
  assert.equal(tarball, `locator-${VERSION}.tgz`);
  execFileSync('mkdir', [APP]);
  writeFileSync(join(APP, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  npm(['install', '--offline', join(DIR, tarball)], APP);
  // Only what the package ships: its built code and README, no sources, tests or data.
  const shipped = readdirSync(join(APP, 'node_modules', 'locator')).sort();
  assert.deepEqual(shipped, ['README.md', 'dist', 'package.json']);
});

test('the installed command: --version and a parse, through npx as the README says', () => {
  const v = inApp('npx', ['--no-install', 'locator', '--version']);
  assert.equal(v.status, 0, v.stderr);
  assert.equal(v.stdout.trim(), VERSION);
  const p = inApp('npx', ['--no-install', 'locator', 'parse', '--json', 'ftp://myname@host.dom/%2Fetc/motd;type=a']);
  assert.equal(p.status, 0, p.stderr);
  const row = JSON.parse(p.stdout) as { valid: boolean; host: string; fields: { ftptype: string } };
  assert.equal(row.valid, true);
  assert.equal(row.host, 'host.dom');
  assert.equal(row.fields.ftptype, 'a');
});

test('each public entry loads from the installed package (locator, /core, /clients, /check, /gateway)', () => {
  const script = `
    const m = await import('locator');
    const core = await import('locator/core');
    const clients = await import('locator/clients');
    const chk = await import('locator/check');
    const gw = await import('locator/gateway');
    console.log(JSON.stringify([
      m.parse('gopher://h/0a').fields.gophertype,
      typeof core.parseWith, typeof clients.open, typeof chk.check, typeof gw.startGateway,
    ]));`;
  const r = inApp(process.execPath, ['--input-type=module', '-e', script]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), ['0', 'function', 'function', 'function', 'function']);
});

test('a consumer type-checks against the shipped .d.ts files (tsc --noEmit, NodeNext)', () => {
  writeFileSync(
    join(APP, 'consumer.ts'),
    [
      "import { parse, resolve, type Url } from 'locator';",
      "import { parseWith } from 'locator/core';",
      "import { open, type OpenOptions } from 'locator/clients';",
      "import { check, type CheckResult } from 'locator/check';",
      "import { startGateway } from 'locator/gateway';",
      "const u: Url = parse('ftp://h/x');",
      "const s: string = resolve('http://a/b/c', '../d');",
      "const o: OpenOptions = { timeout: 1000, netrcHosts: ['h'] };",
      'export const all = [u.host, s, o, open, check, startGateway, parseWith] as const;',
      "export type Status = CheckResult['status'];",
      // A wrong use must fail: the types are really read.
      '// @ts-expect-error: a port is a number or null',
      'export const wrong: string = u.port;',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(APP, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        typeRoots: [join(ROOT, 'node_modules', '@types')],
        types: ['node'],
      },
      files: ['consumer.ts'],
    }),
  );
  const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  const r = inApp(process.execPath, [tsc, '-p', '.']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
