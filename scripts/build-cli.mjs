#!/usr/bin/env node
// The installed command (package.json "bin", after `tsc` in `npm run build`):
// - dist/cli/locator.bundle.cjs: dist/cli/main.js and everything it imports in one CommonJS file
//   (esbuild; the commands stay loaded on first use, as lazy initialisers in the file).
// - dist/cli/locator.text.cjs: the same main.js with only the commands that read and write text
//   (TEXT below: parse, normalize, resolve, extract, lint and their siblings), a fifth of the
//   size: no clients, gateway, checker, markdown-it or parse5. The commands of the other modules
//   are stubs there, never reached: the bin sends those commands to the full bundle.
// - dist/cli/locator.fetch.cjs: the same with only `fetch` (its clients are loaded when used), for
//   a one-shot fetch: the full bundle's 1.7 MB and its cache, made from other commands' runs, were
//   most of what a cold `locator fetch` did before its first byte (bench/RESULTS.md, cold fetch).
// - dist/cli/locator.archive.cjs: the same with only `archive` (1.2 MB against 1.8: no checker,
//   gateway or markdown-it), its cache made from an archive of a small site, so that the crawl,
//   the HTTP client, the HTML reader and the writer's side start compiled without the full
//   bundle's cache growing for every other command (bench/RESULTS.md, the archive).
// - dist/cli/locator.worker.cjs: dist/cli/batch-worker.js and what it imports, the worker that
//   the bundles start for --jobs (main.js, unbundled, starts batch-worker.js itself).
// - beside each, NAME.cache: V8's code cache of that file after the runs listed with it (made
//   by scripts/cli-cache.cjs), so that the command starts without compiling what they ran.
// - dist/cli/locator.cjs: the bin, scripts/locator-bin.cjs with the text bundle's command names
//   written in: it answers --version itself and runs one bundle from its cache.
// Both bundles sit beside main.js, so that their `import.meta.url` (the bundle's own file: URL)
// finds ./batch-worker.js and ../../package.json as main.js does.
// Measured in bench/RESULTS.md (Start-up): this is what brings `locator --version` near `node -e ''`.
import { build } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = `${root}dist/cli/`;

// The command modules of the text bundle (dist/cli/NAME.js), and the commands they hold.
const TEXT = { parse: ['parse'], normalize: ['normalize', 'equal'], resolve: ['resolve', 'relativize'] };
Object.assign(TEXT, { extract: ['extract'], lint: ['lint'], parts: ['get', 'set', 'build'] });

/** A command module that is not in the bundle: unreachable through the bin (see TEXT). */
const stubs = (keep) => ({
  name: 'command-stubs',
  setup(b) {
    b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (a) => {
      if (!a.importer.endsWith(`${'/'}commands.js`)) return undefined;
      const name = a.path.slice(2, -3);
      return keep.includes(name) ? undefined : { path: name, namespace: 'stub' };
    });
    b.onLoad({ filter: /.*/, namespace: 'stub' }, (a) => ({
      contents: `throw new Error('the ${a.path} command is not in this bundle (scripts/build-cli.mjs)');`,
    }));
  },
});

async function bundle(out, keep, entry = `${cli}main.js`) {
  await build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
    plugins: keep === null ? [] : [stubs(keep)],
    // No "#!" line: the bin compiles the file inside a function wrapper, where one is a syntax error.
    banner: {
      js: [
        "'use strict';",
        "const __locatorMetaUrl = require('node:url').pathToFileURL(__filename).href;",
        // import() inside a script compiled from a code cache has no loader in Node 20 (V8 keeps
        // no host options in the cache): the bin lends its own (see below).
        'const __locatorImport = module.importModule ?? ((s) => import(s));',
      ].join('\n'),
    },
    define: { 'import.meta.url': '__locatorMetaUrl' },
  });
  // esbuild keeps main.js's "#!" line at the top: removed (see the banner). Every import() of the
  // bundle (node:crypto, node:module, --scheme modules) through the bin's.
  const text = readFileSync(out, 'utf8').replace(/^#!.*\n/, '');
  // The bundle made ASCII: one character above 0x7f (a dash in a comment esbuild keeps) made V8
  // hold the whole source as a two-byte string, twice (as read, and wrapped by the bin): 1.2 MB
  // of a text command's peak RSS (large objects 1.8 -> 0.6 MB: bench/RESULTS.md, "peak RSS
  // held"). esbuild writes strings and identifiers in ASCII (its charset option) but leaves such
  // characters in comments, regular expressions and tagged templates. The escape means the same
  // in the first two, except right after a backslash (/\—/ would become /\\u2014/), and not in a
  // tagged template's raw text: a character in either place fails the build instead (a line with
  // a backtick is taken as a template; a template over several lines is not seen).
  for (const m of text.matchAll(/[^\x00-\x7f]/g)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const lineEnd = text.indexOf('\n', m.index);
    const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
    if (text[m.index - 1] === '\\' || line.includes('`')) {
      console.error(
        `build-cli: ${out}: cannot make ${JSON.stringify(m[0])} ASCII safely in: ${line.trim().slice(0, 200)}`,
      );
      process.exit(1);
    }
  }
  const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  writeFileSync(out, ascii.replace(/(?<![\w$.])import\((?!s\)\))/g, '__locatorImport('));
}

/** The code cache of `out` after these runs (arguments, standard input, and another exit status it may end with). */
function cache(out, runs) {
  rmSync(`${out}.cache`, { force: true });
  for (const [args, input, status] of runs) {
    const r = spawnSync(process.execPath, [`${root}scripts/cli-cache.cjs`, out, ...args], { input, encoding: 'utf8' });
    if (r.status !== 0 && r.status !== 1 && r.status !== status) {
      console.error(`build-cli: the code cache run of ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
      process.exit(1);
    }
  }
}

/**
 * Adds to `out`'s code cache an archive of a small site served here (robots.txt, pages of links
 * given whole and chunked, a file): the crawl, the HTTP client, the HTML reader and the writer's
 * side, which the archive's start would otherwise compile as it reaches them (measured in
 * bench/RESULTS.md, the archive). The run is asynchronous: the server answers meanwhile.
 */
async function archiveCacheRun(out) {
  const page = (links) =>
    `<!DOCTYPE html>\n<html><body>${links.map((l) => `<a href="${l}">${l}</a>`).join('\n')}</body></html>\n`;
  const site = {
    '/robots.txt': ['text/plain', 'User-agent: *\nDisallow: /private/\n'],
    '/': ['text/html', page(['/a.html', '/b.html', '/f.bin', '/private/x', '/missing'])],
    '/a.html': ['text/html', page(['/', '/b.html'])],
    '/b.html': ['text/html', page(['/a.html'])],
    '/f.bin': ['application/octet-stream', Buffer.alloc(70_000, 7)],
  };
  const server = createHttpServer((req, res) => {
    const entry = site[req.url ?? ''];
    if (entry === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here\n');
      return;
    }
    res.setHeader('content-type', entry[0]);
    // /b.html chunked, the others with a Content-Length: both framings of the HTTP client.
    if (req.url === '/b.html') {
      res.write(entry[1].slice(0, 10));
      res.end(entry[1].slice(10));
    } else res.setHeader('content-length', Buffer.byteLength(entry[1])).end(entry[1]);
  });
  await new Promise((res) => server.listen(0, '127.0.0.1', res));
  const dir = mkdtempSync(join(tmpdir(), 'locator-build-'));
  let failure = null;
  try {
    const args = ['archive', '-o', `${dir}/`, '--per-host', '1', `http://127.0.0.1:${server.address().port}/`];
    // The site is on loopback: no gateway of the environment (`*_proxy`) is asked for it.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/_proxy$/i.test(k)));
    const child = spawn(process.execPath, [`${root}scripts/cli-cache.cjs`, out, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env,
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    // A run that hangs fails the build after a minute (it takes well under a second).
    const limit = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const status = await new Promise((res) => {
      child.on('error', (e) => res(`not started: ${e.message}`));
      child.on('close', (code, signal) => res(code ?? signal));
    });
    clearTimeout(limit);
    // Exit 3 for the 404 (a URL that failed, as meant); each of the others written.
    const records = Number(/([0-9]+) records written/.exec(err)?.[1] ?? 0);
    if ((status !== 0 && status !== 3) || records < 10)
      failure = `build-cli: the code cache run of ${args.join(' ')} failed (${status}):\n${err}`;
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (failure !== null) {
    console.error(failure);
    process.exit(1);
  }
}

await bundle(`${cli}locator.bundle.cjs`, null);
await bundle(`${cli}locator.text.cjs`, Object.keys(TEXT));
// The worker of --jobs (batch-worker.js and what it imports): each worker compiles one file
// instead of loading some forty modules through the ES module loader (bench/RESULTS.md, "the
// worker bundle"). No code cache: V8 takes none for a worker's CommonJS file from the bin.
await bundle(`${cli}locator.worker.cjs`, null, `${cli}batch-worker.js`);
// The batch commands and the start-up the benchmarks time; each text command's --help once, which
// also fails the build if one of them was left out of the text bundle.
cache(`${cli}locator.text.cjs`, [
  [['parse', '--json'], 'http://h.com/a\nftp://u:p@h.com/x;type=a\n'],
  [['normalize'], 'HTTP://h.com:80/a\n'],
  [['--help'], ''],
  ...Object.values(TEXT)
    .flat()
    .map((c) => [[c, '--help'], '']),
]);
cache(`${cli}locator.bundle.cjs`, [
  [['explain', 'gopher://h.com/1x'], ''],
  [['help', 'check'], ''],
]);

// archive: its --help and a run over a small site served here (archiveCacheRun).
await bundle(`${cli}locator.archive.cjs`, ['archive']);
cache(`${cli}locator.archive.cjs`, [[['archive', '--help'], '']]);
await archiveCacheRun(`${cli}locator.archive.cjs`);

// fetch: its --help, a file: URL (the command's whole path, no network) and an FTP URL of a port
// that refuses the connection (the FTP client's module and its dial, no server needed).
await bundle(`${cli}locator.fetch.cjs`, ['fetch']);
const closed = await new Promise((res) => {
  const srv = createServer().listen(0, '127.0.0.1', () => {
    const { port } = srv.address();
    srv.close(() => res(port));
  });
});
cache(`${cli}locator.fetch.cjs`, [
  [['fetch', '--help'], ''],
  [['fetch', `file://${root}package.json`], ''],
  // Exit 3: the connection failed, as meant.
  [['fetch', `ftp://127.0.0.1:${closed}/x.txt`], '', 3],
]);

const bin = readFileSync(`${root}scripts/locator-bin.cjs`, 'utf8');
const names = JSON.stringify(Object.values(TEXT).flat());
writeFileSync(`${cli}locator.cjs`, bin.replace(/^const TEXT = .*;$/m, `const TEXT = ${names};`));
chmodSync(`${cli}locator.cjs`, 0o755);
chmodSync(`${cli}main.js`, 0o755);
