// Nothing above the clients asks a scheme's name (test/data/docs/style.md, "Clients"): what is
// particular to a scheme is asked of its entry (src/schemes/) or of its client's face
// (src/clients/<folder>/index.ts, listed in src/clients/builtin-faces.ts). A comparison of a scheme with
// a string (`url.scheme === 'gopher'`, `'ftp' !== scheme`) or a switch on a scheme is allowed only
// in src/schemes/ and in the client folder of the schemes named; anywhere else this test fails,
// naming the file, the line and the text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ROOT } from './helpers.js';

/** A scheme compared with a string literal, either way round; or a switch on a scheme. */
const COMPARED = /\bscheme\s*[!=]==?\s*(['"`])([^'"`]*)\1|(['"`])([^'"`]*)\3\s*[!=]==?\s*[\w.?]*\bscheme\b/g;
const SWITCHED = /\bswitch\s*\(\s*[\w.?]*\bscheme\s*\)/g;

export interface Finding {
  file: string;
  line: number;
  text: string;
  /** The scheme names compared with, or '(switch)'. */
  names: string[];
}

/** The schemes of each client folder, read from the table of built-in faces (src/clients/builtin-faces.ts). */
export function foldersOfFaces(builtin: string): Map<string, Set<string>> {
  const folderOf = new Map<string, string>();
  for (const m of builtin.matchAll(/^import (\w+) from '\.\/([\w-]+)\/index\.js';$/gm)) folderOf.set(m[1], m[2]);
  const table = /BUILTIN_FACES[^=]*=\s*\{([^}]*)\}/.exec(builtin)?.[1] ?? '';
  const schemes = new Map<string, Set<string>>();
  for (const m of table.matchAll(/(?:^|,)\s*(?:['"]?([\w+.-]+)['"]?\s*:\s*)?(\w+)\s*(?=,|$)/g)) {
    const scheme = m[1] ?? m[2];
    const folder = folderOf.get(m[2]);
    if (folder === undefined) continue;
    if (!schemes.has(folder)) schemes.set(folder, new Set());
    schemes.get(folder)!.add(scheme);
  }
  return schemes;
}

/** Every comparison of a scheme by name in `files` (path relative to the root -> text) that its place does not allow. */
export function findNameDispatch(files: Map<string, string>, faces: Map<string, Set<string>>): Finding[] {
  const out: Finding[] = [];
  for (const [file, text] of files) {
    if (file.startsWith('src/schemes/')) continue;
    const folder = /^src\/clients\/([\w-]+)\//.exec(file)?.[1];
    const own = folder === undefined ? new Set<string>() : (faces.get(folder) ?? new Set<string>());
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '');
      const names: string[] = [];
      for (const m of code.matchAll(COMPARED)) {
        const name = m[2] ?? m[4];
        if (!own.has(name)) names.push(name);
      }
      if (own.size === 0 && SWITCHED.test(code)) names.push('(switch)');
      SWITCHED.lastIndex = 0;
      if (names.length > 0) out.push({ file, line: i + 1, text: line.trim(), names });
    });
  }
  return out;
}

function sources(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts'))
      out.set(relative(ROOT, p).split(sep).join('/'), readFileSync(p, 'utf8'));
  }
  return out;
}

test("no module outside src/schemes/ and a scheme's own client folder compares a scheme with a name or switches on one", () => {
  const faces = foldersOfFaces(readFileSync(join(ROOT, 'src/clients/builtin-faces.ts'), 'utf8'));
  assert.ok(faces.get('http')?.has('https') && faces.get('nntp')?.has('news'), 'the face table was read');
  const found = findNameDispatch(sources(join(ROOT, 'src')), faces);
  assert.deepEqual(
    found.map((f) => `${f.file}:${f.line}: ${f.text}`),
    [],
    'dispatch on a scheme name: ask the scheme entry or the client face',
  );
});

test("the check finds each form of dispatch by name, and allows a scheme's own folder", () => {
  const faces = new Map([['http', new Set(['http', 'https'])]]);
  const files = new Map([
    [
      'src/gateway/a.ts',
      "if (url.scheme === 'gopher') x();\nif ('ftp' !== u.scheme) y();\n// url.scheme === 'wais' in a comment\n",
    ],
    ['src/check/b.ts', 'switch (url.scheme) {\n}\n'],
    ['src/clients/http/c.ts', "const secure = t.via.scheme === 'https';\nif (u.scheme === 'ftp') z();\n"],
    ['src/schemes/d.ts', "if (url.scheme === 'news') w();\n"],
  ]);
  assert.deepEqual(
    findNameDispatch(files, faces).map((f) => `${f.file}:${f.line} ${f.names.join(',')}`),
    ['src/gateway/a.ts:1 gopher', 'src/gateway/a.ts:2 ftp', 'src/check/b.ts:1 (switch)', 'src/clients/http/c.ts:2 ftp'],
  );
});
