// The layering of src/ (core <- schemes <- operations <- clients <- cli/gateway, no import cycle),
// checked by dependency-cruiser with the rules of .dependency-cruiser.cjs (docs/layering.md).
// The first test runs them over src/ and names every violation; the others run them over a small
// tree with one known violation per rule, so a rule that stops catching anything fails here too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './helpers.js';

const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  rule: { name: string; severity: 'error' | 'warn' | 'info' | 'ignore' };
  from: string;
  to: string;
  dependencyTypes?: string[];
  cycle?: Array<{ name: string }>;
}

/** Runs dependency-cruiser (its CLI, JSON out) with the project's rules over `dir`/src. */
function cruise(dir: string): Violation[] {
  const r = spawnSync(
    process.execPath,
    [DEPCRUISE, '--config', CONFIG, '--output-type', 'json', '--progress', 'none', 'src'],
    {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  assert.ok(r.stdout.length > 0, `dependency-cruiser produced no output (status ${r.status}): ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  assert.ok(out.summary.totalCruised > 0, 'dependency-cruiser read no module');
  return out.summary.violations;
}

/** One line per violation: `rule: from -> to`, with the cycle spelled out. */
function describe(v: Violation): string {
  const cycle = v.cycle ? ` (cycle: ${[v.from, ...v.cycle.map((c) => c.name)].join(' -> ')})` : '';
  return `${v.rule.name}: ${v.from} -> ${v.to}${cycle}`;
}

test('src/ keeps its layers and has no runtime import cycle (dependency-cruiser)', () => {
  const errors = cruise(ROOT).filter((v) => v.rule.severity === 'error' || v.rule.severity === 'warn');
  assert.deepEqual(errors.map(describe), [], `layering violations:\n${errors.map(describe).join('\n')}`);
});

// A tree with one violation per rule (and some imports that are fine), cruised with the same config.
const TREE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [] },
    include: ['src'],
  }),
  'outside.ts': 'export const o = 1;\n',
  // core-stands-alone (core -> schemes), and a type-only cycle inside core (allowed).
  'src/core/a.ts': "import { s } from '../schemes/s.js';\nexport const a = s;\n",
  'src/core/t1.ts': "import type { B } from './t2.js';\nexport interface A { b?: B }\n",
  'src/core/t2.ts': "import type { A } from './t1.js';\nexport interface B { a?: A }\n",
  // schemes-on-core (schemes -> an operation)
  'src/schemes/s.ts': "import { r } from '../operations/resolve.js';\nexport const s = r;\n",
  'src/operations/resolve.ts': 'export const r = 1;\n',
  // operations-below-clients, by a value import and by a type-only import
  'src/operations/lint.ts': "import { c } from '../clients/c.js';\nexport const l = c;\n",
  'src/extract/e.ts': "import type { C } from '../clients/c.js';\nexport const e: C | null = null;\n",
  // clients-below-cli
  'src/clients/c.ts': "import { m } from '../cli/m.js';\nexport type C = number;\nexport const c = m;\n",
  'src/cli/m.ts': "import { readFileSync } from 'node:fs';\nexport const m = typeof readFileSync;\n",
  // check-below-cli
  'src/check/k.ts': "import { m } from '../cli/m.js';\nexport const k = m;\n",
  // crawl-below-check
  'src/crawl/q.ts': "import { k } from '../check/k.js';\nexport const q = k;\n",
  // clients-through-their-face: the gateway reaches past src/clients/index.ts (a type-only import
  // counts); the same import through the index is fine
  'src/gateway/w.ts': "import type { C } from '../clients/c.js';\nexport const w: C | null = null;\n",
  'src/gateway/ok.ts': "import { i } from '../clients/index.js';\nexport const ok = i;\n",
  'src/clients/index.ts': 'export const i = 1;\n',
  // node-builtins-only-in-clients-and-cli, by a type-only import
  'src/extract/n.ts': "import type { Socket } from 'node:net';\nexport const n: Socket | null = null;\n",
  // no-cycle through a dynamic import()
  'src/clients/open.ts': "export async function open(): Promise<unknown> {\n  return (await import('./g.js')).g;\n}\n",
  'src/clients/g.ts': "import { open } from './open.js';\nexport const g = open;\n",
  // Inside src/clients/: scheme-folder-alone (ftp -> gopher; tn3270 -> gopher; file -> ftp: a
  // protocol carried over another's is no exemption), though a scheme's folder imports a shared
  // folder (file -> framing/, tn3270 and telnet -> telnet-engine/) and the face table imports every
  // scheme's folder; scheme-folder-below-the-drivers (gopher -> open(), probe/ -> the face table);
  // shared-below-schemes (probe/ -> ftp, a shared top-level module -> gopher)
  'src/clients/ftp/a.ts': "import { b } from '../gopher/b.js';\nexport const a = b;\n",
  'src/clients/gopher/b.ts': "import { open } from '../open.js';\nexport const b = open;\n",
  'src/clients/file/c.ts':
    "import { a } from '../ftp/a.js';\nimport { f } from '../framing/f.js';\nexport const c = [a, f];\n",
  'src/clients/tn3270/t.ts':
    "import { t } from '../telnet-engine/t.js';\nimport { b } from '../gopher/b.js';\nexport const u = [t, b];\n",
  'src/clients/telnet/t.ts': "import { t } from '../telnet-engine/t.js';\nexport const v = t;\n",
  'src/clients/telnet-engine/t.ts': "import { p } from '../probe/p.js';\nexport const t = p;\n",
  'src/clients/framing/f.ts': 'export const f = 1;\n',
  'src/clients/probe/p.ts': "import type { C } from '../ftp/d.js';\nexport const p: C | null = null;\n",
  'src/clients/probe/q.ts': "import { faces } from '../builtin-faces.js';\nexport const q = faces;\n",
  'src/clients/ftp/d.ts': 'export type C = number;\n',
  'src/clients/builtin-faces.ts':
    "import { a } from './ftp/a.js';\nimport { c } from './file/c.js';\nexport const faces = [a, c];\n",
  'src/clients/dial.ts': "import { b } from './gopher/b.js';\nexport const dial = b;\n",
  // zero-dependencies (a file outside src/), not-to-unresolvable, known-layer
  'src/operations/build.ts': "import { o } from '../../outside.js';\nexport const b = o;\n",
  'src/operations/policy.ts': "import { x } from './missing.js';\nexport const p = x;\n",
  'src/misc/x.ts': "import { a } from '../core/a.js';\nexport const x = a;\n",
};

test("each rule catches its violation: layers (type-only imports included), the clients' face, the tiers inside the clients, node: modules, dynamic cycles, packages, unresolved imports, unknown folders", () => {
  const dir = mkdtempSync(join(tmpdir(), 'locator-layering-'));
  try {
    for (const [path, text] of Object.entries(TREE)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    // A cycle is reported once, from one of its modules: named here by its modules, sorted.
    const found = cruise(dir)
      .map(
        (v) =>
          `${v.rule.severity} ${v.rule.name}: ${
            v.cycle
              ? `cycle ${v.cycle
                  .map((c) => c.name)
                  .sort()
                  .join(' ')}`
              : `${v.from} -> ${v.to}`
          }`,
      )
      .sort();
    assert.deepEqual(
      found,
      [
        'error check-below-cli: src/check/k.ts -> src/cli/m.ts',
        'error clients-below-cli: src/clients/c.ts -> src/cli/m.ts',
        'error crawl-below-check: src/crawl/q.ts -> src/check/k.ts',
        'error clients-through-their-face: src/gateway/w.ts -> src/clients/c.ts',
        'error core-stands-alone: src/core/a.ts -> src/schemes/s.ts',
        'error known-layer: src/misc/x.ts -> src/core/a.ts',
        'error no-cycle: cycle src/clients/g.ts src/clients/open.ts',
        'error node-builtins-only-in-clients-and-cli: src/extract/n.ts -> net',
        'error not-to-unresolvable: src/operations/policy.ts -> ./missing.js',
        'error operations-below-clients: src/extract/e.ts -> src/clients/c.ts',
        'error operations-below-clients: src/operations/lint.ts -> src/clients/c.ts',
        'error schemes-on-core: src/schemes/s.ts -> src/operations/resolve.ts',
        'error scheme-folder-alone: src/clients/file/c.ts -> src/clients/ftp/a.ts',
        'error scheme-folder-alone: src/clients/ftp/a.ts -> src/clients/gopher/b.ts',
        'error scheme-folder-alone: src/clients/tn3270/t.ts -> src/clients/gopher/b.ts',
        'error scheme-folder-below-the-drivers: src/clients/gopher/b.ts -> src/clients/open.ts',
        'error scheme-folder-below-the-drivers: src/clients/probe/q.ts -> src/clients/builtin-faces.ts',
        'error shared-below-schemes: src/clients/dial.ts -> src/clients/gopher/b.ts',
        'error shared-below-schemes: src/clients/probe/p.ts -> src/clients/ftp/d.ts',
        'error zero-dependencies: src/operations/build.ts -> outside.ts',
        'info type-only-cycle: cycle src/core/t1.ts src/core/t2.ts',
      ].sort(),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
