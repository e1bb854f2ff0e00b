// The violations a scan finds, with their cap: at most MAX_VIOLATIONS are listed per
// URL, the rest counted in one summary. The scanner, the host and character checks and lint
// (ViolationList) note their findings here (RFC 1738 2.2, 3.1, 5).

import { diagnostic, type Diagnostic } from './errors.js';

/**
 * What an analysis finds: the violations. One object per analysis (analyze.ts); the checks write
 * to it directly.
 */
export interface Findings {
  /** The violations found so far (null: none yet). */
  v: Diagnostic[] | null;
  /** When set, only violations of this code are kept; the others are counted (checkRange). */
  only?: string;
  /**
   * The cap on `v` (see MAX_VIOLATIONS), made at the first violation when `capped` (so that a
   * URL with no violation costs no allocation); absent and not capped: every violation is kept.
   */
  cap?: Cap;
  /** True when the list is capped (the scanner's); false or absent: every violation is kept. */
  capped?: boolean;
}

/**
 * At most this many violations are listed per URL (a line dense in violations would otherwise
 * make output and memory grow with it). The rest are counted in one final `too-many-violations`
 * diagnostic, at the offset of the first one not listed; its severity is "error" when one of
 * them is an error, so that `valid` stays true to the whole URL.
 */
export const MAX_VIOLATIONS = 100;
/** Declared in errors.ts. */
const TOO_MANY_VIOLATIONS = 'too-many-violations';

/** The bookkeeping of a capped list: the violations listed are the MAX_VIOLATIONS first by offset. */
export interface Cap {
  /** Violations noted, listed or not. */
  count: number;
  /** The largest offset in the list. */
  maxKept: number;
  /** Violations not listed: how many, the smallest offset, and whether one is an error. */
  omitted: number;
  omittedAt: number;
  omittedError: boolean;
}

/** The summary diagnostics made here, with the count each stands for (for lint to merge). */
const SUMMARIES = new WeakMap<Diagnostic, number>();

export function newCap(): Cap {
  return { count: 0, maxKept: -1, omitted: 0, omittedAt: Infinity, omittedError: false };
}

/** How many violations a `too-many-violations` diagnostic of this module stands for, else 0. */
export function omittedCount(d: Diagnostic): number {
  return SUMMARIES.get(d) ?? 0;
}

function omit(cap: Cap, offset: number, n: number, error: boolean): void {
  cap.omitted += n;
  if (offset < cap.omittedAt) cap.omittedAt = offset;
  if (error) cap.omittedError = true;
}

/** Sorts the list by offset (stably) and keeps its MAX_VIOLATIONS first, counting the rest. */
function compact(list: Diagnostic[], cap: Cap): void {
  if (list.length > 1) list.sort(byOffset);
  for (let k = MAX_VIOLATIONS; k < list.length; k++) omit(cap, list[k].offset, 1, list[k].severity === 'error');
  if (list.length > MAX_VIOLATIONS) list.length = MAX_VIOLATIONS;
  cap.maxKept = list.length === 0 ? -1 : list[list.length - 1].offset;
}

/**
 * Notes a finding. Past the cap, a finding at or after every listed offset is only counted (the
 * scan goes forward, so this is the common case: constant time, no list growth); one before them
 * is listed and the list compacted when it reaches twice the cap. Time stays linear in the
 * number of findings and memory bounded by the cap.
 */
export function noteDiagnostic(st: Findings, d: Diagnostic): void {
  let cap = st.cap;
  if (cap === undefined) {
    if (st.capped !== true) {
      if (st.v === null) st.v = [d];
      else st.v.push(d);
      return;
    }
    cap = st.cap = newCap();
  }
  cap.count++;
  const v = st.v;
  if (v === null) {
    st.v = [d];
    cap.maxKept = d.offset;
    return;
  }
  if (v.length >= MAX_VIOLATIONS && d.offset >= cap.maxKept) {
    omit(cap, d.offset, 1, d.severity === 'error');
    return;
  }
  v.push(d);
  if (d.offset > cap.maxKept) cap.maxKept = d.offset;
  if (v.length >= 2 * MAX_VIOLATIONS) compact(v, cap);
}

/** Notes a violation of a declared code. */
export function note(st: Findings, code: string, offset: number, message?: string): void {
  if (st.only !== undefined && code !== st.only) {
    if (st.cap !== undefined) st.cap.count++;
    return;
  }
  noteDiagnostic(st, diagnostic(code, offset, message));
}

/** The count of violations noted so far (listed or not). */
export function noted(st: Findings): number {
  return st.cap !== undefined ? st.cap.count : (st.v?.length ?? 0);
}

/**
 * The violations of a capped list in offset order: the MAX_VIOLATIONS first, then, when more
 * were found, one `too-many-violations` that counts them. A new array each time.
 */
export function listed(st: Findings): Diagnostic[] | null {
  const v = st.v;
  const cap = st.cap;
  if (v === null || cap === undefined) return v === null ? null : v.slice();
  compact(v, cap);
  if (cap.omitted === 0) return v.slice();
  const d = diagnostic(
    TOO_MANY_VIOLATIONS,
    cap.omittedAt,
    `${cap.omitted} more violation${cap.omitted === 1 ? '' : 's'} from offset ${cap.omittedAt} on ${cap.omitted === 1 ? 'is' : 'are'} not listed: only the first ${MAX_VIOLATIONS} of a URL are`,
    cap.omittedError ? 'error' : 'warning',
  );
  SUMMARIES.set(d, cap.omitted);
  return [...v, d];
}

/**
 * A capped list of findings for callers outside the scanner (lint): push() each finding, or a
 * list that may end in a summary of this module (its count is carried over); list() gives the
 * MAX_VIOLATIONS first by offset and a summary of the rest.
 */
export class ViolationList {
  readonly #st: Findings = { v: null, cap: newCap() };

  /** Adds one finding (RFC 1738 2.2, 5: a violation; RFC 1738 6: a danger). */
  push(d: Diagnostic): void {
    const n = omittedCount(d);
    if (n > 0) {
      const cap = this.#st.cap!;
      cap.count += n;
      omit(cap, d.offset, n, d.severity === 'error');
    } else noteDiagnostic(this.#st, d);
  }

  /** Adds every finding of `list`. */
  pushAll(list: readonly Diagnostic[]): void {
    for (const d of list) this.push(d);
  }

  /** The findings in offset order, capped. */
  list(): Diagnostic[] {
    return listed(this.#st) ?? [];
  }
}

function byOffset(a: Diagnostic, b: Diagnostic): number {
  return a.offset - b.offset;
}
