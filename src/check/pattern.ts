// The regular expressions of --exclude, --include and .locatorignore, matched in time linear in
// the URL's length (a Thompson NFA simulated one code point at a time, as RE2 and lychee's regex
// crate do). A pattern comes from a repository's config, which a pull request can change, and V8's
// backtracking engine takes minutes on `(\w+)+\.bak$` against a 34-character path, or on
// `.*.*.*x` against 1,000 characters; refusing only nested quantifiers would leave the second.
// No npm package was taken: re2 needs a native build, and a pure-JS port is a large dependency for
// the one operation used here (a test anywhere in the URL).
//
// The syntax is ECMAScript's with the `u` flag (the pattern is first compiled by RegExp, so a
// malformed one gets its usual SyntaxError); the two constructs that no finite automaton matches,
// backreferences and lookaround, are refused with the offset where they start. A character class
// or a character escape matches one code point, so it is tested by RegExp on that code point
// alone, which cannot backtrack.

/** A pattern refused: not a regular expression, or one that cannot be matched in linear time. */
export class PatternError extends SyntaxError {
  constructor(
    message: string,
    /** Where the construct starts in the pattern (UTF-16 index), or null for a malformed pattern. */
    readonly offset: number | null,
  ) {
    super(message);
  }
}

/** The most instructions of a compiled pattern (a repetition count multiplies its operand's). */
export const MAX_PROGRAM = 4096;

/** The deepest nesting of groups in a pattern. */
export const MAX_NESTING = 100;

type Node =
  | { t: 'char'; test: (cp: number) => boolean }
  | { t: 'assert'; kind: '^' | '$' | 'b' | 'B' }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'repeat'; node: Node; min: number; max: number };

type Inst =
  | { op: 'char'; test: (cp: number) => boolean }
  | { op: 'split'; x: number; y: number }
  | { op: 'jmp'; x: number }
  | { op: 'assert'; kind: '^' | '$' | 'b' | 'B' }
  | { op: 'match' };

const isWord = (cp: number) =>
  (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f;
const isLineEnd = (cp: number) => cp === 0x0a || cp === 0x0d || cp === 0x2028 || cp === 0x2029;

/** A predicate on one code point from the source of a class or escape that matches one code point. */
function oneCodePoint(source: string): (cp: number) => boolean {
  const re = new RegExp(`^(?:${source})$`, 'u');
  return (cp) => re.test(String.fromCodePoint(cp));
}

class Parser {
  i = 0;
  depth = 0;
  constructor(
    readonly p: string,
    readonly what: string,
  ) {}

  refuse(at: number, construct: string): never {
    throw new PatternError(
      `${this.what} ${JSON.stringify(this.p)} uses ${construct} at offset ${at}, which cannot be matched in linear time (docs/check.md)`,
      at,
    );
  }

  alternation(): Node {
    const items = [this.sequence()];
    while (this.p[this.i] === '|') {
      this.i++;
      items.push(this.sequence());
    }
    return items.length === 1 ? items[0] : { t: 'alt', items };
  }

  sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.p.length && this.p[this.i] !== '|' && this.p[this.i] !== ')') items.push(this.quantified());
    return { t: 'seq', items };
  }

  quantified(): Node {
    const node = this.atom();
    const c = this.p[this.i];
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      // RegExp accepted the pattern: with the u flag a "{" after an atom is a quantifier.
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.p.slice(this.i))!;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
    } else return node;
    this.i++;
    if (this.p[this.i] === '?') this.i++; // lazy: the same answer for a test
    return { t: 'repeat', node, min, max };
  }

  atom(): Node {
    const p = this.p;
    const start = this.i;
    const c = p[this.i];
    if (c === '(') {
      if (p.startsWith('(?=', start) || p.startsWith('(?!', start)) this.refuse(start, 'a lookahead');
      if (p.startsWith('(?<=', start) || p.startsWith('(?<!', start)) this.refuse(start, 'a lookbehind');
      if (p.startsWith('(?:', start)) this.i += 3;
      else if (p.startsWith('(?<', start)) this.i = p.indexOf('>', start) + 1;
      else if (p.startsWith('(?', start)) this.refuse(start, 'a group modifier');
      else this.i++;
      if (++this.depth > MAX_NESTING) this.refuse(start, `groups nested more than ${MAX_NESTING} deep`);
      const inner = this.alternation();
      this.depth--;
      this.i++; // ")"
      return inner;
    }
    if (c === '[') {
      let j = start + 1;
      while (p[j] !== ']') j += p[j] === '\\' ? 2 : 1;
      this.i = j + 1;
      return { t: 'char', test: oneCodePoint(p.slice(start, this.i)) };
    }
    if (c === '.') {
      this.i++;
      return { t: 'char', test: (cp) => !isLineEnd(cp) };
    }
    if (c === '^' || c === '$') {
      this.i++;
      return { t: 'assert', kind: c };
    }
    if (c === '\\') return this.escape();
    const cp = p.codePointAt(start)!;
    this.i += cp > 0xffff ? 2 : 1;
    return { t: 'char', test: (x) => x === cp };
  }

  escape(): Node {
    const p = this.p;
    const start = this.i;
    const c = p[start + 1];
    if (c >= '1' && c <= '9') this.refuse(start, 'a backreference');
    if (c === 'k') this.refuse(start, 'a backreference');
    if (c === 'b' || c === 'B') {
      this.i += 2;
      return { t: 'assert', kind: c };
    }
    let end = start + 2;
    if (c === 'p' || c === 'P' || (c === 'u' && p[start + 2] === '{')) end = p.indexOf('}', start) + 1;
    else if (c === 'x') end = start + 4;
    else if (c === 'c') end = start + 3;
    else if (c === 'u') {
      end = start + 6;
      // A surrogate pair written as two \u escapes is one code point under the u flag.
      const hi = parseInt(p.slice(start + 2, start + 6), 16);
      if (hi >= 0xd800 && hi <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(p.slice(end))) end += 6;
    }
    this.i = end;
    return { t: 'char', test: oneCodePoint(p.slice(start, end)) };
  }
}

class Compiler {
  readonly prog: Inst[] = [];
  constructor(
    readonly pattern: string,
    readonly what: string,
  ) {}

  tooLarge(): never {
    throw new PatternError(
      `${this.what} ${JSON.stringify(this.pattern)} is too large: more than ${MAX_PROGRAM} steps once its repetitions are counted out`,
      null,
    );
  }

  emit(i: Inst): number {
    if (this.prog.length >= MAX_PROGRAM) this.tooLarge();
    return this.prog.push(i) - 1;
  }

  node(n: Node): void {
    switch (n.t) {
      case 'char':
        this.emit({ op: 'char', test: n.test });
        return;
      case 'assert':
        this.emit({ op: 'assert', kind: n.kind });
        return;
      case 'seq':
        for (const x of n.items) this.node(x);
        return;
      case 'alt': {
        const jumps: Inst[] = [];
        n.items.forEach((x, k) => {
          if (k === n.items.length - 1) {
            this.node(x);
            return;
          }
          const split = { op: 'split', x: 0, y: 0 } as Extract<Inst, { op: 'split' }>;
          this.emit(split);
          split.x = this.prog.length;
          this.node(x);
          const jmp = { op: 'jmp', x: 0 } as Extract<Inst, { op: 'jmp' }>;
          this.emit(jmp);
          jumps.push(jmp);
          split.y = this.prog.length;
        });
        for (const j of jumps) (j as { x: number }).x = this.prog.length;
        return;
      }
      case 'repeat': {
        // A count past the cap is refused before it is counted out (the operand may emit nothing).
        if (n.min > MAX_PROGRAM || (n.max !== Infinity && n.max > MAX_PROGRAM)) this.tooLarge();
        for (let k = 0; k < n.min; k++) this.node(n.node);
        if (n.max === Infinity) {
          const split = { op: 'split', x: 0, y: 0 } as Extract<Inst, { op: 'split' }>;
          const loop = this.emit(split);
          split.x = this.prog.length;
          this.node(n.node);
          this.emit({ op: 'jmp', x: loop });
          split.y = this.prog.length;
          return;
        }
        const splits: Extract<Inst, { op: 'split' }>[] = [];
        for (let k = n.min; k < n.max; k++) {
          const split = { op: 'split', x: 0, y: 0 } as Extract<Inst, { op: 'split' }>;
          this.emit(split);
          split.x = this.prog.length;
          splits.push(split);
          this.node(n.node);
        }
        for (const s of splits) s.y = this.prog.length;
        return;
      }
    }
  }
}

/** A pattern compiled for linear-time matching: test() is true when it matches anywhere in the text. */
export interface LinearPattern {
  readonly source: string;
  test(text: string): boolean;
}

/**
 * `pattern` (ECMAScript syntax, `u` flag, unanchored) compiled for matching in time proportional
 * to the text's length times the pattern's size. `what` names it in errors ("the exclude
 * pattern"). A malformed pattern, a backreference, a lookaround, or a pattern larger than
 * MAX_PROGRAM steps is a PatternError.
 */
export function linearPattern(pattern: string, what: string): LinearPattern {
  try {
    new RegExp(pattern, 'u');
  } catch (e) {
    throw new PatternError(
      `${what} ${JSON.stringify(pattern)} is no regular expression: ${(e as Error).message}`,
      null,
    );
  }
  const parser = new Parser(pattern, what);
  const tree = parser.alternation();
  const c = new Compiler(pattern, what);
  c.node(tree);
  c.emit({ op: 'match' });
  const prog = c.prog;
  return { source: pattern, test: (text) => run(prog, text) };
}

/** The Thompson simulation: every state the pattern can be in after each code point, each at most once. */
function run(prog: readonly Inst[], text: string): boolean {
  const cps: number[] = [];
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    cps.push(cp);
    i += cp > 0xffff ? 2 : 1;
  }
  const n = cps.length;
  // mark[pc] === pos + 1: pc is already among the states at pos.
  const mark = new Int32Array(prog.length);
  const stack: number[] = [];
  let current: number[] = [];
  let next: number[] = [];
  const add = (list: number[], pc0: number, pos: number): void => {
    stack.push(pc0);
    while (stack.length > 0) {
      const pc = stack.pop()!;
      if (mark[pc] === pos + 1) continue;
      mark[pc] = pos + 1;
      const inst = prog[pc];
      if (inst.op === 'jmp') stack.push(inst.x);
      else if (inst.op === 'split') stack.push(inst.y, inst.x);
      else if (inst.op === 'assert') {
        if (holds(inst.kind, pos)) stack.push(pc + 1);
      } else list.push(pc);
    }
  };
  const holds = (kind: '^' | '$' | 'b' | 'B', pos: number): boolean => {
    if (kind === '^') return pos === 0;
    if (kind === '$') return pos === n;
    const boundary = (pos > 0 && isWord(cps[pos - 1])) !== (pos < n && isWord(cps[pos]));
    return kind === 'b' ? boundary : !boundary;
  };
  for (let pos = 0; pos <= n; pos++) {
    add(current, 0, pos); // unanchored: a match may start at every position
    for (const pc of current) {
      const inst = prog[pc];
      if (inst.op === 'match') return true;
      if (pos < n && inst.op === 'char' && inst.test(cps[pos])) add(next, pc + 1, pos + 1);
    }
    [current, next] = [next, current];
    next.length = 0;
  }
  return false;
}
