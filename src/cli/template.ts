// The template of `locator get --format` (docs/cli.md, "get, set and build"):
//
//   template    = *( literal / "{{" / "}}" / placeholder )
//   literal     = any character but "{" and "}"
//   placeholder = "{" name *selector [ ":" modifier ] "}"
//   name        = ALPHA *( ALPHA / DIGIT / "-" / "_" )
//   selector    = "[" [ "-" ] 1*DIGIT "]"          ; an item of a list, counted from 0 (-1: the last)
//               / "." 1*( ALPHA / DIGIT / "-" / "_" ) ; a member of an object (Prospero's fields)
//   modifier    = "raw"                            ; the part as written, escapes kept
//               / "written"                        ; port only: the digits as written, "" when none
//
// "{{" and "}}" stand for "{" and "}"; a "{" or "}" that starts no placeholder is a usage error.
// A selector and "raw" do not go together (the raw text of a list item is not kept).
import { UsageError } from './command.js';

export type Selector = number | string;

export interface Placeholder {
  /** The placeholder as written, without its braces: the key of a `--json` object. */
  readonly text: string;
  readonly name: string;
  readonly selectors: readonly Selector[];
  readonly modifier: 'raw' | 'written' | null;
}

export type Piece = string | Placeholder;

const PLACEHOLDER = /^([A-Za-z][A-Za-z0-9_-]*)((?:\[-?[0-9]+\]|\.[A-Za-z0-9_-]+)*)(?::(raw|written))?$/;
const SELECTOR = /\[(-?[0-9]+)\]|\.([A-Za-z0-9_-]+)/g;

/** The pieces of a template: literal text and placeholders, in order; a UsageError for a malformed one. */
export function parseTemplate(template: string): Piece[] {
  const out: Piece[] = [];
  let lit = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === '}') {
      if (template[i + 1] !== '}')
        throw new UsageError(`--format: a "}" at ${i} closes no placeholder (write "}}" for a "}")`);
      lit += '}';
      i++;
      continue;
    }
    if (c !== '{') {
      lit += c;
      continue;
    }
    if (template[i + 1] === '{') {
      lit += '{';
      i++;
      continue;
    }
    const end = template.indexOf('}', i + 1);
    if (end < 0) throw new UsageError(`--format: the "{" at ${i} is not closed (write "{{" for a "{")`);
    const text = template.slice(i + 1, end);
    const m = PLACEHOLDER.exec(text);
    if (m === null)
      throw new UsageError(
        `--format: {${text}} is not a placeholder: {name}, {name[N]}, {name.key}, {name:raw} or {port:written}`,
      );
    const modifier = (m[3] ?? null) as Placeholder['modifier'];
    if (modifier === 'written' && m[1] !== 'port')
      throw new UsageError(`--format: {${text}}: ":written" is for the port only; ":raw" gives any part as written`);
    const selectors: Selector[] = [];
    for (const s of m[2].matchAll(SELECTOR)) selectors.push(s[1] !== undefined ? Number(s[1]) : s[2]);
    if (modifier !== null && selectors.length > 0)
      throw new UsageError(`--format: {${text}}: ":${modifier}" applies to a whole part, not to an item of it`);
    if (lit !== '') out.push(lit);
    lit = '';
    out.push({ text, name: m[1], selectors, modifier });
    i = end;
  }
  if (lit !== '') out.push(lit);
  return out;
}

/** The item or member of `value` that the selectors name; undefined when there is none. */
export function select(value: unknown, selectors: readonly Selector[]): unknown {
  let v = value;
  for (const s of selectors) {
    if (v === null || v === undefined) return undefined;
    if (typeof s === 'number') {
      if (!Array.isArray(v)) return undefined;
      v = v[s < 0 ? v.length + s : s];
    } else {
      if (typeof v !== 'object' || Array.isArray(v) || !Object.prototype.hasOwnProperty.call(v, s)) return undefined;
      v = (v as Record<string, unknown>)[s];
    }
  }
  return v;
}
