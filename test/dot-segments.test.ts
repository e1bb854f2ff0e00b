// remove_dot_segments in one pass (issue 10): the same results as the step-by-step readings of
// RFC 3986 5.2.4 and of the October 1993 draft that they replace (kept here as the reference),
// on random paths made of the pieces that matter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { removeDotSegments3986, removeDotSegmentsDraft } from '../src/operations/dot-segments.js';

function startsAt(s: string, i: number, prefix: string): boolean {
  return s.startsWith(prefix, i);
}

function hasDotSegment(path: string): boolean {
  const n = path.length;
  for (let i = path.indexOf('.'); i >= 0; i = path.indexOf('.', i + 1)) {
    if (i > 0 && path.charCodeAt(i - 1) !== 47) continue;
    let j = i + 1;
    if (j < n && path.charCodeAt(j) === 46) j++;
    if (j === n || path.charCodeAt(j) === 47) return true;
  }
  return false;
}

// The string-buffer readings as they stood before (quadratic on long paths).
function old3986(input: string): string {
  if (!hasDotSegment(input)) return input; // rules A to D never apply: E moves every segment
  let out = '';
  let i = 0;
  const n = input.length;
  const dropLast = () => {
    const k = out.lastIndexOf('/');
    out = k < 0 ? '' : out.slice(0, k);
  };
  while (i < n) {
    // A. a prefix "../" or "./" is removed
    if (startsAt(input, i, '../')) {
      i += 3;
      continue;
    }
    if (startsAt(input, i, './')) {
      i += 2;
      continue;
    }
    // B. a prefix "/./" or "/." (complete) is replaced by "/"
    if (startsAt(input, i, '/./')) {
      i += 2;
      continue;
    }
    if (i + 2 === n && startsAt(input, i, '/.')) {
      out += '/';
      break;
    }
    // C. a prefix "/../" or "/.." (complete) is replaced by "/", and the last output segment goes
    if (startsAt(input, i, '/../')) {
      i += 3;
      dropLast();
      continue;
    }
    if (i + 3 === n && startsAt(input, i, '/..')) {
      dropLast();
      out += '/';
      break;
    }
    // D. an input of only "." or ".." is removed
    if ((i + 1 === n && input.charCodeAt(i) === 46) || (i + 2 === n && startsAt(input, i, '..'))) break;
    // E. the first segment, with its leading "/" if any, moves to the output
    let j = input.charCodeAt(i) === 47 ? i + 1 : i;
    while (j < n && input.charCodeAt(j) !== 47) j++;
    out += input.slice(i, j);
    i = j;
  }
  return out;
}

/**
 * The October 1993 draft, partial form: "Within the result, all occurrences of "/xxx/.." or "/."
 * are recursively removed, where xxx, ".." and "." are complete path elements." Read literally:
 * each round removes every complete "/." and then the leftmost "/xxx/.." (xxx may be any
 * complete element, ".." and the empty one included, as the text excludes none), until nothing
 * matches. A final "/." or "/xxx/.." leaves no "/" behind.
 */
function oldDraft(path: string): string {
  let p = path;
  for (;;) {
    let changed = false;
    for (let i = p.indexOf('/.'); i >= 0; i = p.indexOf('/.', i)) {
      if (i + 2 === p.length || p.charCodeAt(i + 2) === 47) {
        p = p.slice(0, i) + p.slice(i + 2);
        changed = true;
      } else i += 2;
    }
    for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) {
      const j = p.indexOf('/', i + 1);
      if (j < 0) break;
      if (p.startsWith('..', j + 1) && (j + 3 === p.length || p.charCodeAt(j + 3) === 47)) {
        p = p.slice(0, i) + p.slice(j + 3);
        changed = true;
        break;
      }
    }
    if (!changed) return p;
  }
}

test('property (seed 1738): removeDotSegments3986 and removeDotSegmentsDraft equal the step-by-step readings', () => {
  const piece = fc.constantFrom('/', '.', '..', 'a', 'b', '/.', '/..', './', '../', '//', '...');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 14 }), (parts) => {
      const p = parts.join('');
      assert.equal(removeDotSegments3986(p), old3986(p), `3986 ${JSON.stringify(p)}`);
      assert.equal(removeDotSegmentsDraft(p), oldDraft(p), `draft ${JSON.stringify(p)}`);
    }),
    { seed: 1738, numRuns: 20000 },
  );
});

test('long chains of "/.." and "/a/.." resolve (results checked on a size where the old code is quick)', () => {
  const p = '/a'.repeat(2000) + '/..'.repeat(1000) + '/b/.'.repeat(500);
  assert.equal(removeDotSegments3986(p), old3986(p));
  assert.equal(removeDotSegmentsDraft(p), oldDraft(p));
  assert.equal(removeDotSegments3986('/a/..'.repeat(200000) + '/z'), '/z');
  assert.equal(removeDotSegmentsDraft('/a/..'.repeat(200000) + '/z'), '/z');
});
