// replaceWholeSync() (src/cli/replace-file.ts), the whole-file write of `locator check --cache`: the
// temporary file is created exclusively (O_EXCL) under a random name beside FILE, so whatever sits
// at that name (a planted symbolic link, a file) is never opened, and FILE is replaced only by a
// rename of a complete file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { replaceWholeSync, tempNameFor } from '../../src/cli/replace-file.js';

const DIR = mkdtempSync(join(tmpdir(), 'locator-replace-'));
test.after(() => rmSync(DIR, { recursive: true, force: true }));

test('tempNameFor: a hidden name beside FILE with 16 random hex digits, a new one each call', () => {
  const path = join(DIR, 'cache.json');
  const a = tempNameFor(path);
  assert.equal(dirname(a), DIR);
  assert.match(basename(a), /^\.cache\.json\.[0-9a-f]{16}\.tmp$/);
  assert.notEqual(tempNameFor(path), a);
});

test('replaceWholeSync: FILE replaced whole; no temporary file left; a link at FILE replaced, its target untouched', () => {
  const path = join(DIR, 'whole.json');
  writeFileSync(path, 'old');
  replaceWholeSync(path, 'new text');
  assert.equal(readFileSync(path, 'utf8'), 'new text');
  assert.deepEqual(
    readdirSync(DIR).filter((n) => n.endsWith('.tmp')),
    [],
  );
  const target = join(DIR, 'target.txt');
  writeFileSync(target, 'keep');
  const link = join(DIR, 'link.json');
  symlinkSync(target, link);
  replaceWholeSync(link, 'cache');
  assert.ok(lstatSync(link).isFile());
  assert.equal(readFileSync(target, 'utf8'), 'keep');
});

test('replaceWholeSync: whatever exists at the temporary name (a link, a file) is not opened: EEXIST, nothing written', () => {
  const path = join(DIR, 'exclusive.json');
  writeFileSync(path, 'before');
  const victim = join(DIR, 'victim.txt');
  writeFileSync(victim, 'precious');
  const temp = join(DIR, '.exclusive.json.planted.tmp');
  symlinkSync(victim, temp);
  assert.throws(() => replaceWholeSync(path, 'after', temp), { code: 'EEXIST' });
  assert.equal(readFileSync(victim, 'utf8'), 'precious', 'the link was followed');
  assert.equal(readlinkSync(temp), victim, 'the planted link is left as it was');
  assert.equal(readFileSync(path, 'utf8'), 'before');
  // A dangling link too: an ordinary open would create its target.
  const dangling = join(DIR, '.exclusive.json.dangling.tmp');
  const created = join(DIR, 'created-through-link.txt');
  symlinkSync(created, dangling);
  assert.throws(() => replaceWholeSync(path, 'after', dangling), { code: 'EEXIST' });
  assert.throws(() => lstatSync(created), { code: 'ENOENT' });
});
