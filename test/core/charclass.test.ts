// The character-class table is generated from the RFC 1738 section 5 grammar; these tests
// regenerate it and compare, and check the grammar the generator quotes against the RFC text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, shared, eachRow } from '../helpers.js';
import * as cc from '../../src/core/charclass.js';

// The generator is plain JavaScript, run by `npm run gen`.
const gen = (await import(join(ROOT, 'scripts', 'gen-charclass.mjs'))) as {
  GRAMMAR: string;
  render(): string;
  parseGrammar(text: string): Map<string, Set<number>>;
};

test('RFC 1738 5: src/core/charclass.ts is what the generator makes (npm run gen)', () => {
  assert.equal(readFileSync(join(ROOT, 'src', 'core', 'charclass.ts'), 'utf8'), gen.render());
});

const RULES = gen.GRAMMAR.trim().split(/\n(?=\S)/);

test('RFC 1738 5: the generator reads 13 rules', () => {
  assert.equal(RULES.length, 13);
});

eachRow('RFC 1738 5: the rule the generator reads stands word for word in the RFC', RULES, (rule) => {
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  const rfc = squash(
    shared('spec/rfc1738-1994-12.txt').replace(/\n\n\n+Berners-Lee[^\n]*\n\n\nRFC 1738[^\n]*\n/g, '\n'),
  );
  assert.ok(rfc.includes(squash(rule)), `not in the RFC: ${rule}`);
});

const members = (mask: number) => {
  let s = '';
  for (let c = 0; c < 128; c++) if (cc.CHAR_CLASS[c] & mask) s += String.fromCharCode(c);
  return s;
};

test('RFC 1738 5: each class holds exactly the characters the grammar lists', () => {
  assert.equal(members(cc.LOWALPHA), 'abcdefghijklmnopqrstuvwxyz');
  assert.equal(members(cc.HIALPHA), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
  assert.equal(members(cc.DIGIT), '0123456789');
  assert.equal(members(cc.SAFE), '$+-._');
  assert.equal(members(cc.EXTRA), "!'()*,");
  assert.equal(members(cc.NATIONAL), '[\\]^`{|}~');
  assert.equal(members(cc.PUNCTUATION), '"#%<>');
  assert.equal(members(cc.RESERVED), '&/:;=?@');
  assert.equal(members(cc.HEX), '0123456789ABCDEFabcdef');
  assert.equal(members(cc.UNRESERVED), members(cc.ALPHA | cc.DIGIT | cc.SAFE | cc.EXTRA));
  assert.equal(members(cc.UCHAR), members(cc.UNRESERVED));
  assert.equal(members(cc.XCHAR), members(cc.UNRESERVED | cc.RESERVED));
  assert.equal([...members(cc.SCHEME)].sort().join(''), [...('+-.' + members(cc.ALPHA | cc.DIGIT))].sort().join(''));
});

test('RFC 1738 2.2: the graphic US-ASCII characters are exactly unreserved, reserved, national and punctuation', () => {
  for (let c = 0; c < 128; c++) {
    const graphic = c > 32 && c < 127;
    const classed = (cc.CHAR_CLASS[c] & (cc.UNRESERVED | cc.RESERVED | cc.NATIONAL | cc.PUNCTUATION)) !== 0;
    assert.equal(classed, graphic, `code ${c}`);
  }
});

test('the grammar reader refuses a rule it cannot read', () => {
  assert.throws(() => gen.parseGrammar('a = "xy"'), /single character/);
  assert.throws(() => gen.parseGrammar('a = nosuchrule'), /unknown rule/);
});
