// Bundles that work. The package's entries, resolved through package.json `exports` as a user's
// bundler resolves them, are bundled with esbuild for the browser (format esm) and then RUN:
// imported in Node, and evaluated a second time in a bare JavaScript realm (node:vm) that has
// no `process`, `Buffer`, `require` or module loader, only the web globals a browser has. Each
// run must give what the compiled package gives when Node imports dist/ directly: every built-in
// scheme's fields, extract(), build(), normalize(), resolve(), relativize().
//
// Why this catches the old failure: `src/core/parse.ts` used to `import '../schemes/builtin.js'`
// for its side effect (registering the schemes) while package.json said `"sideEffects": false`;
// esbuild dropped that import with a warning, and the bundle parsed every URL with the generic
// syntax (`{ schemePart }`, an `unknown-scheme` warning). Here a warning fails the bundle, the
// fields are compared scheme by scheme, and a second test reads src/ for the kind of statement
// that made it happen.
//
// Does `"sideEffects"` tell the truth? It lists ./dist/cli/main.js (the bin: it runs the CLI when
// loaded; no export path reaches it) and nothing else. Every other module only declares things
// when loaded, with one kind of call to think about: `export const X = defineCode(...)`, which
// puts the code's severity, section and message into the Map of src/core/errors.ts. That Map is
// read by diagnostic() and LocatorError (a code's section and message) and by describeCodes().
// If a bundler drops a module because none of its exports is used, its codes are not declared,
// and that is harmless: a module that raises or looks up a code names it by the exported
// constant (the test below checks that no code is looked up by a string literal), so whatever
// can raise a code keeps the module that declares it. What changes is only describeCodes(),
// which lists the codes of the modules the program holds, minus codes it can never raise: it
// already does so without a bundler (`locator/core` alone lists fewer codes than `locator`,
// and a client's codes appear once `locator/clients` is loaded). So a dropped module's codes
// are simply not needed, and defineCode does not make a module one with side effects.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import * as esbuild from 'esbuild';
import ts from 'typescript';
import { ROOT } from './helpers.js';

/** One URL per built-in scheme (a scheme added to builtin.ts without a row here fails below). */
const SAMPLES: Readonly<Record<string, string>> = {
  ftp: 'ftp://h.com/pub/a;type=i',
  http: 'http://h.com:8080/a/b?q',
  https: 'https://h.com/a',
  gopher: 'gopher://h.com/0about',
  mailto: 'mailto:joe@h.com',
  news: 'news:comp.lang.c',
  nntp: 'nntp://h.com/comp.lang.c/12',
  telnet: 'telnet://joe@h.com:23/',
  rlogin: 'rlogin://joe@h.com/',
  tn3270: 'tn3270://h.com/',
  wais: 'wais://h.com/db?query',
  file: 'file://h.com/etc/motd',
  prospero: 'prospero://h.com/a/b;type=file',
  mid: 'mid:12345@h.com',
  cid: 'cid:part1@h.com',
  afs: 'afs://cell.com/usr/x',
};

const TEXT = 'See http://x.org/b, or <URL:ftp://h.com/pub/\n  a;type=i> and gopher://h.com/0about.';

/** The API a bundle exports: known only at run time. */
type Api = any;

/**
 * What a bundle computes with the API it exports, as plain JSON (a value from another realm
 * compares equal to one from this realm only after a round trip through JSON). Only the
 * functions the entry exports are called.
 */
function exercise(L: Api): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof L.listSchemes === 'function') {
    const names: string[] = L.listSchemes().map((s: { name: string }) => s.name);
    out.schemes = names;
    out.parsed = Object.fromEntries(
      names.map((name) => {
        const u = L.parse(SAMPLES[name] ?? `${name}:`);
        const entry = typeof L.entryOf === 'function' ? (L.entryOf(u)?.name ?? null) : null;
        return [name, { entry, fields: u.fields, codes: u.violations.map((v: { code: string }) => v.code) }];
      }),
    );
  }
  if (typeof L.extract === 'function') {
    out.extract = [...L.extract(TEXT)].map((m: { url: string; form: string }) => `${m.form} ${m.url}`);
  }
  if (typeof L.build === 'function') {
    out.build = [
      L.build('ftp', { host: 'h.com', segments: ['pub', 'a b'], ftptype: 'i' }),
      L.build('gopher', { host: 'h.com', gophertype: '0', selector: 'a b' }),
    ];
  }
  if (typeof L.normalize === 'function') out.normalize = L.normalize('HTTP://X.ORG:80/%7euser/a');
  if (typeof L.resolve === 'function') {
    out.resolve = [L.resolve('http://a/b/c/d;p?q', '../g'), L.resolve('gopher://h.com/1/a', '/b')];
    out.relativize = L.relativize('http://a/b/c/d', 'http://a/b/e');
  }
  if (typeof L.tryParse === 'function') {
    // `instanceof` does not hold across realms: the error is told by its code.
    const e = L.tryParse('no-colon-here');
    out.error = typeof e.code === 'string' ? e.code : 'parsed';
  }
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
}

/** The globals a browser gives a script (beside the ECMAScript built-ins every realm has). */
const WEB_GLOBALS = {
  TextEncoder,
  TextDecoder,
  URL,
  URLSearchParams,
  ReadableStream,
  WritableStream,
  TransformStream,
  console,
  queueMicrotask,
  structuredClone,
  setTimeout,
  clearTimeout,
};

interface Built {
  name: string;
  file: string;
  text: string;
  /** esbuild's errors (then nothing was written) and warnings, formatted. */
  errors: string[];
  warnings: string[];
  imports: string[];
}

const ENTRIES: Record<string, string> = {
  // The parser entry and the package root, whole.
  core: "import * as L from 'locator/core';\nexport default L;\n",
  root: "import * as L from 'locator';\nexport default L;\n",
  // A user's bundle that takes a few names, so that everything else is shaken out.
  picked:
    "import { parse, listSchemes, entryOf } from 'locator/core';\nimport { extract } from 'locator';\nexport default { parse, listSchemes, entryOf, extract };\n",
  clients: "import * as C from 'locator/clients';\nexport default C;\n",
};

let dir = '';
const built = new Map<string, Built>();
let reference: Record<string, unknown> = {};

async function bundle(name: string, platform: 'browser' | 'node'): Promise<Built> {
  const file = join(dir, 'out', `${name}.mjs`);
  let r: esbuild.BuildResult<{ metafile: true }>;
  try {
    r = await esbuild.build({
      entryPoints: [join(dir, `${name}.js`)],
      absWorkingDir: dir,
      outfile: file,
      bundle: true,
      platform,
      format: 'esm',
      metafile: true,
      write: true,
      logLevel: 'silent',
    });
  } catch (e) {
    const failure = e as esbuild.BuildFailure;
    const errors = await esbuild.formatMessages(failure.errors ?? [{ text: String(e) }], { kind: 'error' });
    const warnings = await esbuild.formatMessages(failure.warnings ?? [], { kind: 'warning' });
    return { name, file, text: '', errors, warnings, imports: [] };
  }
  const warnings = await esbuild.formatMessages(r.warnings, { kind: 'warning' });
  const imports = Object.values(r.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
  return { name, file, text: readFileSync(file, 'utf8'), errors: [], warnings, imports };
}

/** The bundle `name`, built without error (else the test fails with esbuild's messages). */
function bundleOf(name: string): Built {
  const b = built.get(name)!;
  assert.deepEqual(b.errors, [], `esbuild failed to bundle ${name}:\n${b.errors.join('\n')}`);
  return b;
}

/** Evaluates an ESM bundle in a fresh realm with only WEB_GLOBALS: its default export. */
async function runInBareRealm(b: Built): Promise<Api> {
  const { code } = await esbuild.transform(b.text, { format: 'iife', globalName: '__bundle', logLevel: 'silent' });
  const context = vm.createContext({ ...WEB_GLOBALS });
  return (vm.runInContext(`${code}\n__bundle`, context, { filename: b.file }) as { default: Api }).default;
}

before(async () => {
  // The repository as the package `locator`, found the way a project's node_modules is.
  dir = mkdtempSync(join(tmpdir(), 'locator-bundle-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'locator'), 'dir');
  for (const [name, text] of Object.entries(ENTRIES)) writeFileSync(join(dir, `${name}.js`), text);
  for (const name of ['core', 'root', 'picked']) built.set(name, await bundle(name, 'browser'));
  built.set('clients', await bundle('clients', 'node'));
  reference = exercise(await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href));
});

after(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

test('the reference (dist/ imported by Node) has a sample URL for every built-in scheme, each read by its own entry', () => {
  const names = reference.schemes as string[];
  assert.deepEqual(
    names.filter((n) => !(n in SAMPLES)),
    [],
    'built-in schemes without a row in SAMPLES',
  );
  assert.deepEqual(
    Object.keys(SAMPLES).filter((n) => !names.includes(n)),
    [],
    'rows in SAMPLES that are not built-in schemes',
  );
  const parsed = reference.parsed as Record<string, { entry: string | null; fields: Record<string, unknown> }>;
  for (const n of names) assert.equal(parsed[n].entry, n, `${SAMPLES[n]} is read by the entry of ${n}`);
});

for (const name of ['core', 'root', 'picked']) {
  test(`browser bundle of ${name === 'picked' ? 'a few names of locator/core and locator' : name === 'core' ? 'locator/core' : 'the package root'}: no warning, nothing left to import, no node: module, no require(`, () => {
    const b = bundleOf(name);
    assert.deepEqual(b.warnings, [], `esbuild warned:\n${b.warnings.join('\n')}`);
    assert.deepEqual(b.imports, [], 'the bundle still imports modules');
    assert.doesNotMatch(b.text, /["']node:/, 'a node: module in the bundle');
    assert.doesNotMatch(b.text, /\brequire\(/, 'require( in the bundle');
  });

  for (const realm of ['Node', 'a bare realm with only web globals']) {
    test(`browser bundle of ${name}, run in ${realm}: every scheme's fields, extract, build, normalize, resolve as dist/ gives them`, async () => {
      const b = bundleOf(name);
      const L = realm === 'Node' ? (await import(pathToFileURL(b.file).href)).default : await runInBareRealm(b);
      const got = exercise(L);
      assert.deepEqual(
        Object.keys(got).sort(),
        name === 'picked'
          ? ['extract', 'parsed', 'schemes']
          : name === 'core'
            ? ['build', 'error', 'parsed', 'schemes']
            : ['build', 'error', 'extract', 'normalize', 'parsed', 'relativize', 'resolve', 'schemes'],
        'the functions the bundle exports',
      );
      const parsed = got.parsed as Record<
        string,
        { entry: string | null; fields: Record<string, unknown>; codes: string[] }
      >;
      for (const [scheme, p] of Object.entries(parsed)) {
        assert.ok(!p.codes.includes('unknown-scheme'), `${SAMPLES[scheme]}: unknown-scheme`);
        assert.ok(!('schemePart' in p.fields), `${SAMPLES[scheme]}: generic fields ${JSON.stringify(p.fields)}`);
        assert.equal(p.entry, scheme, `${SAMPLES[scheme]}: read without its scheme entry`);
      }
      if (got.extract !== undefined) {
        assert.ok(
          (got.extract as string[]).includes('bare http://x.org/b'),
          `extract found ${JSON.stringify(got.extract)}`,
        );
      }
      const want = Object.fromEntries(Object.keys(got).map((k) => [k, reference[k]]));
      assert.deepEqual(got, want);
    });
  }
}

test('locator/clients is for Node: it bundles for platform node (importing only node: modules) and not for the browser', async () => {
  const b = bundleOf('clients');
  assert.deepEqual(b.warnings, [], `esbuild warned:\n${b.warnings.join('\n')}`);
  assert.ok(b.imports.length > 0);
  assert.deepEqual(
    b.imports.filter((p) => !p.startsWith('node:')),
    [],
    'the clients bundle imports a module that is not node:',
  );
  const C = (await import(pathToFileURL(b.file).href)).default as Api;
  assert.equal(typeof C.open, 'function');
  await assert.rejects(
    esbuild.build({
      entryPoints: [join(dir, 'clients.js')],
      absWorkingDir: dir,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    }),
    (e: { errors?: Array<{ text: string }> }) =>
      e.errors?.some((m) => m.text === 'Could not resolve "locator/clients"') === true,
  );
});

function sources(d: string, out: string[] = []): string[] {
  for (const name of readdirSync(d).sort()) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

test('"sideEffects" tells the truth: outside the files it lists, no module of src/ does anything when loaded but declare', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { sideEffects: boolean | string[] };
  const listed = new Set(Array.isArray(pkg.sideEffects) ? pkg.sideEffects : []);
  assert.ok(pkg.sideEffects === false || Array.isArray(pkg.sideEffects), '"sideEffects" is false or a list of files');
  const bad: string[] = [];
  const effectful = new Set<string>();
  for (const file of sources(join(ROOT, 'src'))) {
    const rel = relative(ROOT, file);
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const imported = new Set<string>();
    const namespaces = new Set<string>();
    const where = (n: ts.Node) => `${rel}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
    for (const st of sf.statements) {
      if (ts.isImportDeclaration(st)) {
        // `import './x.js'` is only ever written for an effect: the import a bundler drops.
        if (st.importClause === undefined) bad.push(`${where(st)} imports a module for its side effect`);
        const b = st.importClause?.namedBindings;
        if (b && ts.isNamedImports(b)) for (const e of b.elements) imported.add(e.name.text);
        if (b && ts.isNamespaceImport(b)) namespaces.add(b.name.text);
        if (st.importClause?.name) imported.add(st.importClause.name.text);
      } else if (ts.isVariableStatement(st) || ts.isExportAssignment(st)) {
        // Top-level initializers: a call of an imported function other than defineCode (see the
        // head of this file) could change another module's state (registerScheme, ...).
        // Calls inside functions run later, not at load; methods of imported values
        // (UCHAR_SET.with(...)) and constructors build new values. (A heuristic: a local
        // function that calls such a function at load would pass; review keeps to that.)
        const visit = (n: ts.Node): void => {
          if (ts.isFunctionLike(n) || ts.isClassLike(n)) return;
          if (ts.isCallExpression(n)) {
            const callee = n.expression;
            const name =
              ts.isIdentifier(callee) && imported.has(callee.text)
                ? callee.text
                : ts.isPropertyAccessExpression(callee) &&
                    ts.isIdentifier(callee.expression) &&
                    namespaces.has(callee.expression.text)
                  ? callee.name.text
                  : null;
            // A call marked /* @__PURE__ */ (the bundlers' annotation: droppable when its value is
            // unused) computes a constant, as the RegExp builders of the schemes' usual forms do.
            const pure = sf.text.slice(n.pos, n.getStart()).includes('@__PURE__');
            if (name !== null && name !== 'defineCode' && !pure) bad.push(`${where(n)} calls ${name}() when loaded`);
          }
          ts.forEachChild(n, visit);
        };
        visit(st);
      } else if (!(
        ts.isFunctionDeclaration(st) ||
        ts.isClassDeclaration(st) ||
        ts.isInterfaceDeclaration(st) ||
        ts.isTypeAliasDeclaration(st) ||
        ts.isEnumDeclaration(st) ||
        ts.isExportDeclaration(st) ||
        ts.isEmptyStatement(st)
      )) {
        // A statement that runs when the module loads (a call, a loop, an assignment).
        const dist = `./dist/${relative(join(ROOT, 'src'), file).replace(/\.ts$/, '.js')}`;
        effectful.add(dist);
        if (!listed.has(dist)) {
          bad.push(`${where(st)} runs when loaded, and "sideEffects" does not list the module`);
        }
      }
    }
    // A code looked up by a literal instead of its constant would not keep the module that declares it.
    for (const m of sf.text.matchAll(/\b(?:diagnostic|new LocatorError)\(\s*['"`]/g)) {
      bad.push(
        `${rel}:${sf.getLineAndCharacterOfPosition(m.index ?? 0).line + 1} names a diagnostic code by a literal`,
      );
    }
  }
  assert.deepEqual(bad, []);
  // And nothing is listed that has no effect (the list says which modules to keep, no more).
  assert.deepEqual([...listed].sort(), [...effectful].sort());
});
