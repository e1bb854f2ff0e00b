// The checklist of docs/adding-a-scheme.md, run: a minimal built-in scheme (`tmpl`, one line sent,
// the server's answer read to its end) is written from the template below into a scratch copy of
// src/, touching only its two folders (src/schemes/tmpl.ts, src/clients/tmpl/) and the two tables
// (BY_NAME in src/schemes/builtin.ts, BUILTIN_FACES in src/clients/builtin-faces.ts); the copy is
// compared with src/ to show that nothing else changed. The copy is compiled (so the tables' types
// take the new name), a user's file that reads the new scheme's typed fields is compiled against
// its declarations, and its parse, explain, open() (against a tiny local server) and gateway page
// are run, with the places that list the built-in schemes: the table of well-known ports (lint),
// `locator fetch --help` and the gateway's home page. A step the checklist leaves out, or a list
// of schemes written by hand outside the two tables, fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT } from './helpers.js';

/** The template: the files of a new built-in scheme, by their path under src/. */
const TEMPLATE: Record<string, string> = {
  'schemes/tmpl.ts': `// tmpl: a template scheme (docs/adding-a-scheme.md). tmpl://host[:port]/line: the line is sent,
// the answer read until the server closes the connection.
import type { Url } from '../core/url.js';
import type { SchemeSpec } from './spec.js';

/** The decoded fields of a tmpl URL: the line sent. */
export interface TmplFields {
  line: string;
}

export const tmpl: SchemeSpec<TmplFields> = {
  name: 'tmpl',
  defaultPort: 7099,
  syntax: 'internet',
  status: 'later',
  fields: (url: Url) => ({ line: url.path ?? '' }),
  explain: (url: Url) => ({
    protocol: 'tmpl',
    host: url.host,
    port: url.port ?? 7099,
    steps: [\`connect \${url.host}:\${url.port ?? 7099}\`, \`send \${url.path ?? ''}\`, 'read until the server closes'],
    notes: [],
  }),
};
`,
  'clients/tmpl/index.ts': `// The face of the tmpl client (docs/adding-a-scheme.md): documents; ./client.ts when first used.
import type { ClientFace } from '../client-face.js';

const tmpl: ClientFace = {
  kinds: ['document'],
  open: async (url, options) => (await import('./client.js')).open(url, options),
  gatewayShows: 'the answer to one line',
};

export default tmpl;
`,
  'clients/tmpl/client.ts': `// The tmpl client: one line sent, the answer read to its end.
import type { Url } from '../../core/url.js';
import { checkTimeout, Connection, pullStream } from '../connection.js';
import type { OpenOptions, Resource } from '../types.js';

export async function open(url: Url, options: OpenOptions): Promise<Resource> {
  const conn = await Connection.connect(url.host ?? '', url.port ?? 7099, {
    signal: options.signal,
    timeout: checkTimeout(options.timeout),
    policy: options.policy,
  });
  await conn.write(\`\${url.path ?? ''}\\r\\n\`);
  return {
    meta: { scheme: url.scheme, url: url.href, size: null, contentType: 'text/plain', transcript: [] },
    body: pullStream(() => conn.read(), () => conn.close(), {}),
  };
}
`,
};

/** Adds `line` to the table of `file` (after the line that opens it) and `imp` to its imports. */
function addToTable(file: string, opens: RegExp, imp: string, line: string): void {
  const text = readFileSync(file, 'utf8');
  const m = opens.exec(text);
  assert.ok(m !== null, `${file}: the table is where docs/adding-a-scheme.md says (${opens})`);
  const at = m.index + m[0].length;
  const firstImport = text.indexOf('\nimport ');
  assert.ok(firstImport >= 0, `${file} has imports`);
  writeFileSync(
    file,
    text.slice(0, firstImport + 1) + imp + '\n' + text.slice(firstImport + 1, at) + '\n  ' + line + text.slice(at),
  );
}

/** A user's file: the new scheme's fields are typed by its entry (fieldsOf, SchemeFields). */
const USE_TYPES = `import { parse, fieldsOf, type SchemeFields } from './dist/parser.js';
const line: string = fieldsOf(parse('tmpl://h/x'), 'tmpl').line;
const same: SchemeFields['tmpl']['line'] = line;
// @ts-expect-error: a tmpl URL's fields have no selector
fieldsOf(parse('tmpl://h/x'), 'tmpl').selector;
export const all = [line, same];
`;

/** The files under `dir`, by their path relative to it. */
function filesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) {
      const path = join(e.parentPath, e.name);
      out.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  }
  return out;
}

// What the compiled copy is asked: parse, explain, open() against a one-shot server, the gateway
// page; and the lists of built-in schemes: lint's well-known ports, fetch's help, the gateway's home.
const RUN = `
import net from 'node:net';
const dist = process.argv[2];
const { parse, explain, fieldsOf, portEntry } = await import(dist + '/index.js');
const { fetchCommand } = await import(dist + '/cli/fetch.js');
const { open } = await import(dist + '/clients/index.js');
const { startGateway } = await import(dist + '/gateway/index.js');
const server = net.createServer((s) => s.once('data', (d) => s.end('you sent ' + d.toString('latin1').trim() + '\\n')));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = 'tmpl://127.0.0.1:' + server.address().port + '/hello';
const u = parse(url);
const out = { scheme: u.scheme, port: u.port, steps: explain(u).steps, line: fieldsOf(u, 'tmpl').line };
out.wellKnown = portEntry(7099);
out.help = fetchCommand.about[0];
const r = await open(url, { timeout: 5000 });
out.body = await new Response(r.body).text();
out.kind = r.meta.kind;
const gw = await startGateway({ port: 0, timeout: 5000 });
const page = await fetch(gw.url + '/?url=' + encodeURIComponent(url));
out.page = { status: page.status, text: await page.text() };
out.home = await (await fetch(gw.url + '/')).text();
await gw.close();
server.close();
console.log(JSON.stringify(out));
`;

test('a new built-in scheme from the template touches its two folders and the two tables, and parses, explains, opens and shows in the gateway', () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-scheme-'));
  try {
    cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
    cpSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    for (const [path, text] of Object.entries(TEMPLATE)) {
      mkdirSync(join(dir, 'src', path, '..'), { recursive: true });
      writeFileSync(join(dir, 'src', path), text);
    }
    addToTable(join(dir, 'src/schemes/builtin.ts'), /const BY_NAME = \{/, "import { tmpl } from './tmpl.js';", 'tmpl,');
    addToTable(
      join(dir, 'src/clients/builtin-faces.ts'),
      /export const BUILTIN_FACES[^=]*= \{/,
      "import tmpl from './tmpl/index.js';",
      'tmpl,',
    );
    // Nothing but the two folders and the two tables differs from src/.
    const before = filesOf(join(ROOT, 'src'));
    const after = filesOf(join(dir, 'src'));
    const touched = [...after.keys()].filter((p) => before.get(p) !== after.get(p));
    const removed = [...before.keys()].filter((p) => !after.has(p));
    assert.deepEqual([...touched, ...removed].sort(), [
      'clients/builtin-faces.ts',
      'clients/tmpl/client.ts',
      'clients/tmpl/index.ts',
      'schemes/builtin.ts',
      'schemes/tmpl.ts',
    ]);
    const tsc = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', 'dist'],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(tsc.status, 0, `the copy with the new scheme compiles:\n${tsc.stdout}${tsc.stderr}`);
    writeFileSync(join(dir, 'use-types.ts'), USE_TYPES);
    const types = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--target',
        'ES2022',
        '--module',
        'NodeNext',
        '--moduleResolution',
        'NodeNext',
        '--types',
        'node',
        'use-types.ts',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(types.status, 0, `the new scheme's fields are typed for a user:\n${types.stdout}${types.stderr}`);
    writeFileSync(join(dir, 'run.mjs'), RUN);
    const run = spawnSync(process.execPath, ['run.mjs', join(dir, 'dist')], { cwd: dir, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const out = JSON.parse(run.stdout) as {
      scheme: string;
      port: number;
      steps: string[];
      line: string;
      wellKnown: { port: number; service: string; schemes: string[] } | undefined;
      help: string;
      body: string;
      kind: string;
      page: { status: number; text: string };
      home: string;
    };
    assert.equal(out.scheme, 'tmpl');
    assert.equal(out.line, 'hello');
    assert.deepEqual(out.wellKnown, { port: 7099, service: 'tmpl', schemes: ['tmpl'] });
    assert.ok(/\(([^;]*);/.exec(out.help)?.[1].split(', ').includes('tmpl'), out.help);
    assert.match(out.home, /<li><code>tmpl:<\/code> the answer to one line<\/li>/);
    assert.deepEqual(out.steps.slice(1), ['send hello', 'read until the server closes']);
    assert.equal(out.body, 'you sent hello\n');
    assert.equal(out.kind, 'document');
    assert.equal(out.page.status, 200, out.page.text.slice(0, 500));
    assert.match(out.page.text, /you sent hello/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
