// Dot segments: the removal of "." and ".." path elements when a partial form is resolved, in
// each of the three editions of the rules (RFC 1808 4 step 6, RFC 3986 5.2.4, the October 1993
// draft's partial form). Pure functions of a path string.

/**
 * RFC 1808 4, step 6 a-d, on a path without its leading "/" ("the initial slash is not part of
 * the URL path"): "./" and a final "." removed; "<segment>/../" and a final "<segment>/.."
 * removed, leftmost first, where <segment> is not "..". Done as a stack of segments, which the
 * RFC allows ("some systems may find it more efficient to implement Step 6 as a pair of segment
 * stacks being merged"): each ".." pops the segment before it unless that is "..", and a final
 * "." or a popping final ".." leaves the path ending in "/".
 */
export function removeDotSegments1808(path: string): string {
  if (!hasDotSegment(path)) return path;
  const out: string[] = [];
  const n = path.length;
  let s = 0;
  for (let i = 0; i <= n; i++) {
    if (i < n && path.charCodeAt(i) !== 47) continue;
    const len = i - s;
    const last = i === n;
    if (len === 1 && path.charCodeAt(s) === 46) {
      if (last) out.push('');
    } else if (len === 2 && path.charCodeAt(s) === 46 && path.charCodeAt(s + 1) === 46) {
      if (out.length > 0 && out[out.length - 1] !== '..') {
        out.pop();
        if (last) out.push('');
      } else out.push('..');
    } else out.push(path.slice(s, i));
    s = i + 1;
  }
  return out.join('/');
}

/** True when some complete segment of the path is "." or "..": only then is there work to do. */
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

function startsAt(s: string, i: number, prefix: string): boolean {
  return s.startsWith(prefix, i);
}

/**
 * RFC 3986 5.2.4 remove_dot_segments, as written: an input buffer (here an offset into `input`)
 * and an output buffer, and rules A to E applied until the input is empty.
 */
export function removeDotSegments3986(input: string): string {
  if (!hasDotSegment(input)) return input; // rules A to D never apply: E moves every segment
  // The output buffer is a stack of the segments rule E moved, each with its leading "/" (only
  // the first may have none): "remove the last segment and its preceding '/'" is a pop, where a
  // string buffer would be searched and copied once per "/.." (quadratic).
  const out: string[] = [];
  let i = 0;
  const n = input.length;
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
      out.push('/');
      break;
    }
    // C. a prefix "/../" or "/.." (complete) is replaced by "/", and the last output segment goes
    if (startsAt(input, i, '/../')) {
      i += 3;
      out.pop();
      continue;
    }
    if (i + 3 === n && startsAt(input, i, '/..')) {
      out.pop();
      out.push('/');
      break;
    }
    // D. an input of only "." or ".." is removed
    if ((i + 1 === n && input.charCodeAt(i) === 46) || (i + 2 === n && startsAt(input, i, '..'))) break;
    // E. the first segment, with its leading "/" if any, moves to the output
    let j = input.charCodeAt(i) === 47 ? i + 1 : i;
    while (j < n && input.charCodeAt(j) !== 47) j++;
    out.push(input.slice(i, j));
    i = j;
  }
  return out.join('');
}

/**
 * The October 1993 draft, partial form: "Within the result, all occurrences of "/xxx/.." or "/."
 * are recursively removed, where xxx, ".." and "." are complete path elements." Read literally:
 * each round removes every complete "/." and then the leftmost "/xxx/.." (xxx may be any
 * complete element, ".." and the empty one included, as the text excludes none), until nothing
 * matches. A final "/." or "/xxx/.." leaves no "/" behind.
 *
 * Computed in one pass: no round creates a "/." (elements are only removed), so every "."
 * element (after a "/") goes first; the leftmost-first removal of "/xxx/.." is then a stack of
 * elements, where a ".." pops the element before it (the text before the first "/" is no
 * element: nothing pops it). Rounds that each restart from the beginning would be quadratic.
 */
export function removeDotSegmentsDraft(path: string): string {
  const parts = path.split('/');
  const out = [parts[0]];
  for (let k = 1; k < parts.length; k++) {
    const e = parts[k];
    if (e === '.') continue;
    if (e === '..' && out.length > 1) out.pop();
    else out.push(e);
  }
  return out.join('/');
}
