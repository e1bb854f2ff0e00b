// The 3270 display buffer (IBM GA23-0059 "3270 Data Stream Programmer's Reference", chapter 3;
// RFC 1576 names the terminal types, IBM-3278-2 being 24 rows of 80): one octet per position,
// some positions holding a field attribute instead of a character, a cursor, and the keyboard
// lock. It draws itself as plain text (screenText) and as ANSI terminal text, takes the keys
// of an operator (characters into unprotected fields, Tab, Backtab, arrows, Backspace) and builds
// the inbound data stream of an AID key (read modified, short read). Pure.

import { displayChar, encodeChar } from './ebcdic.js';

/** Field attribute bits (GA23-0059 "Field Attribute"). */
export const FA = { PROTECTED: 0x20, NUMERIC: 0x10, DISPLAY: 0x0c, MDT: 0x01 } as const;
/** The display bits of a field attribute: 0x0C is "nondisplay", 0x08 "intensified". */
const NONDISPLAY = 0x0c;
const INTENSIFIED = 0x08;

/** The attention identifiers (GA23-0059 "AID"): what an operator's key sends. */
export const AID = {
  NONE: 0x60,
  SYSREQ: 0xf0,
  ENTER: 0x7d,
  CLEAR: 0x6d,
  PA1: 0x6c,
  PA2: 0x6e,
  PA3: 0x6b,
  PF: [
    0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0x7a, 0x7b, 0x7c, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
    0xc8, 0xc9, 0x4a, 0x4b, 0x4c,
  ],
} as const;

/** The display models of the 3278 (RFC 1576 terminal types IBM-3278-2 to -5): the alternate screen size of each; the default is 24 x 80. */
export const MODELS: Record<number, { rows: number; cols: number }> = {
  2: { rows: 24, cols: 80 },
  3: { rows: 32, cols: 80 },
  4: { rows: 43, cols: 80 },
  5: { rows: 27, cols: 132 },
};

/** Extended attribute types (GA23-0059 "Extended Field Attribute", "Character Attribute"): all, highlighting, foreground colour. */
export const XA = { ALL: 0x00, HIGHLIGHT: 0x41, COLOR: 0x42 } as const;
/** Highlighting values (GA23-0059): default, blink, reverse video, underscore, intensify. */
export const HIGHLIGHT = {
  DEFAULT: 0x00,
  NORMAL: 0xf0,
  BLINK: 0xf1,
  REVERSE: 0xf2,
  UNDERSCORE: 0xf4,
  INTENSIFY: 0xf8,
} as const;
/** The colours (GA23-0059 "Color Identifications") and the ANSI foreground code that draws each. */
const ANSI_COLOR: Record<number, number> = {
  0xf1: 34, // blue
  0xf2: 31, // red
  0xf3: 35, // pink
  0xf4: 32, // green
  0xf5: 36, // turquoise
  0xf6: 33, // yellow
  0xf7: 37, // white (neutral)
};
/** The 3279's base colours of a field without a colour of its own (GA23-0059 "Base Color"): protected or not, intensified or not. */
const BASE = { protectedNormal: 0xf1, protectedBright: 0xf7, inputNormal: 0xf4, inputBright: 0xf2 } as const;

/** The six-bit code of a 12-bit buffer address (GA23-0059 "Buffer Addressing"). */
const ADDRESS_CODE = [
  0x40, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0xd1, 0xd2,
  0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0x5a, 0x5b, 0x5c, 0x5d, 0x5e, 0x5f, 0x60, 0x61, 0xe2, 0xe3, 0xe4, 0xe5,
  0xe6, 0xe7, 0xe8, 0xe9, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f, 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
  0xf9, 0x7a, 0x7b, 0x7c, 0x7d, 0x7e, 0x7f,
];

/**
 * A buffer address of two octets (GA23-0059 "Buffer Addressing"): 14-bit binary when the first
 * octet's two high bits are 00, else 12-bit, six bits from each octet.
 */
export function decodeAddress(b1: number, b2: number): number {
  if ((b1 & 0xc0) === 0) return ((b1 & 0x3f) << 8) | b2;
  return ((b1 & 0x3f) << 6) | (b2 & 0x3f);
}

/** The two octets of a buffer address as a terminal sends it: 12-bit coded below 4096, else 14-bit. */
export function encodeAddress(address: number): [number, number] {
  if (address < 4096) return [ADDRESS_CODE[(address >> 6) & 0x3f], ADDRESS_CODE[address & 0x3f]];
  return [(address >> 8) & 0x3f, address & 0xff];
}

/** The kinds of operator error, and what the status line shows for each (x3270's wording of the 3278's indicators). */
export const OPERATOR_ERROR = { protected: 'X Protected', numeric: 'X NUM', overflow: 'X Overflow' } as const;
export type OperatorError = keyof typeof OPERATOR_ERROR;

/** One field (GA23-0059 "Fields"): its attribute's address, the attribute, and where its data starts and how long it is. */
export interface Field {
  at: number;
  attribute: number;
  start: number;
  length: number;
}

/**
 * The display buffer of one 3270 terminal (GA23-0059 chapter 3): the default screen size (24 x
 * 80) and an alternate one (the model's: 32 x 80, 43 x 80, 27 x 132), chosen by each Erase/Write
 * (default) or Erase/Write Alternate (alternate).
 */
export class Screen {
  #rows: number;
  #cols: number;
  /** The octet (EBCDIC) at each position (the buffer holds the larger of the two sizes). */
  readonly chars: Uint8Array;
  /** The field attribute at each position, or -1 where the position holds a character. */
  readonly attrs: Int16Array;
  /** The colour at each position (GA23-0059): of the field at an attribute, of the character (SA) elsewhere; 0 is none. */
  readonly color: Uint8Array;
  /** The highlighting at each position, the same way; 0 is none. */
  readonly highlight: Uint8Array;
  cursor = 0;
  /** The keyboard is locked from an AID until the host restores it (WCC bit 6). */
  locked = false;
  /**
   * An operator error (the 3278's "input inhibited"; IBM GA23-0059 "Keyboard"): a character keyed
   * into a protected position or a field attribute (`protected`), a non-digit into a numeric
   * field (`numeric`, the numeric lock), a character inserted into a full field (`overflow`).
   * The keyboard takes nothing more until Reset (reset()) or the host restores it; null when none.
   */
  operatorError: OperatorError | null = null;
  /** The host asked for the alarm (WCC bit 5) in its last write. */
  alarm = false;
  /** Insert mode (the Insert key): typed characters push the rest of the field right. */
  insert = false;
  /** Draw colours (the 3279's base colours and the extended ones) in ansi(); off on a monochrome terminal. */
  colors = true;
  /** The character attributes set by SA (GA23-0059 "Set Attribute"), given to what a write puts next. */
  pen = { color: 0, highlight: 0 };

  constructor(
    readonly defaultRows = 24,
    readonly defaultCols = 80,
    readonly alternateRows = defaultRows,
    readonly alternateCols = defaultCols,
  ) {
    this.#rows = defaultRows;
    this.#cols = defaultCols;
    const most = Math.max(defaultRows * defaultCols, alternateRows * alternateCols);
    this.chars = new Uint8Array(most);
    this.attrs = new Int16Array(most).fill(-1);
    this.color = new Uint8Array(most);
    this.highlight = new Uint8Array(most);
  }

  get rows(): number {
    return this.#rows;
  }
  get cols(): number {
    return this.#cols;
  }
  get size(): number {
    return this.#rows * this.#cols;
  }
  /** True while the alternate screen size is in use (after an Erase/Write Alternate). */
  get alternate(): boolean {
    return this.#rows !== this.defaultRows || this.#cols !== this.defaultCols;
  }

  /** Erase (GA23-0059 Erase/Write): every position to NUL, no fields, cursor at 0; `alternate` picks the screen size (EWA) or the default (EW). */
  erase(alternate?: boolean): void {
    if (alternate !== undefined) {
      this.#rows = alternate ? this.alternateRows : this.defaultRows;
      this.#cols = alternate ? this.alternateCols : this.defaultCols;
    }
    this.chars.fill(0);
    this.attrs.fill(-1);
    this.color.fill(0);
    this.highlight.fill(0);
    this.pen = { color: 0, highlight: 0 };
    this.cursor = 0;
  }

  /** True when the buffer holds at least one field attribute (a formatted screen). */
  get formatted(): boolean {
    return this.attrs.some((a) => a >= 0);
  }

  /** The address of the field attribute that governs `address`, or -1 on an unformatted screen. */
  attributeOf(address: number): number {
    for (let i = 0; i < this.size; i++) {
      const p = (address - i + this.size) % this.size;
      if (this.attrs[p] >= 0) return p;
    }
    return -1;
  }

  /** True when an operator may type at `address`: an unformatted screen, or a character position of an unprotected field. */
  isInput(address: number): boolean {
    if (this.attrs[address] >= 0) return false;
    const fa = this.attributeOf(address);
    return fa < 0 || (this.attrs[fa] & FA.PROTECTED) === 0;
  }

  /**
   * Where an operator may type, for every position at once (1: isInput() is true), in one pass
   * over the buffer instead of one search for the governing attribute per position: a position
   * is governed by the nearest field attribute before it, wrapping (GA23-0059 "Fields").
   */
  inputMap(): Uint8Array {
    const map = new Uint8Array(this.size);
    const first = this.attrs.findIndex((a) => a >= 0);
    if (first < 0) return map.fill(1);
    let fa = first;
    for (let k = 1; k <= this.size; k++) {
      const p = (first + k) % this.size;
      if (this.attrs[p] >= 0) fa = p;
      else if ((this.attrs[fa] & FA.PROTECTED) === 0) map[p] = 1;
    }
    return map;
  }

  /** The fields in buffer order (GA23-0059 "Fields": each runs from after its attribute to the next attribute). */
  fields(): Field[] {
    const at: number[] = [];
    for (let i = 0; i < this.size; i++) if (this.attrs[i] >= 0) at.push(i);
    return at.map((a, k) => {
      const next = at[(k + 1) % at.length];
      const length = (next - a - 1 + this.size) % this.size;
      return { at: a, attribute: this.attrs[a], start: (a + 1) % this.size, length };
    });
  }

  /** The first character position of the next unprotected field after `from`, or `from` when there is none (GA23-0059 Tab). */
  nextInput(from: number): number {
    for (let i = 1; i <= this.size; i++) {
      const p = (from + i) % this.size;
      if (this.attrs[p] >= 0 && (this.attrs[p] & FA.PROTECTED) === 0) {
        const start = (p + 1) % this.size;
        if (this.attrs[start] < 0) return start;
      }
    }
    return this.formatted ? from : 0;
  }

  /** The first character position of the unprotected field before the one holding `from` (Backtab). */
  previousInput(from: number): number {
    const starts = this.fields()
      .filter((f) => (f.attribute & FA.PROTECTED) === 0 && f.length > 0)
      .map((f) => f.start);
    if (starts.length === 0) return this.formatted ? from : 0;
    const before = starts.filter((s) => s < from);
    return before.length > 0 ? before[before.length - 1] : starts[starts.length - 1];
  }

  /** Sets the modified data tag of the field holding `address`. */
  #touch(address: number): void {
    const fa = this.attributeOf(address);
    if (fa >= 0) this.attrs[fa] |= FA.MDT;
  }

  /**
   * An operator typed `ch` (GA23-0059 "Keyboard"; IBM 3174/3278 auto-skip): into the cursor's
   * position when it may take input, then the cursor moves on. At the end of a field it goes to
   * the first position of the next field, whatever that field is, and on past a field that is
   * protected and numeric (auto-skip) to the first position of the next unprotected field; it
   * never stays on a field attribute. A character keyed into a protected position or an
   * attribute, a non-digit into a numeric field, or a character inserted into a full field is an
   * operator error: nothing changes, `operatorError` says which, and the keyboard takes nothing
   * more until reset(). False then, while the keyboard is locked, and for a character code page
   * 037 does not have.
   */
  type(ch: string): boolean {
    if (this.locked || this.operatorError !== null) return false;
    if (!this.isInput(this.cursor)) {
      this.operatorError = 'protected';
      return false;
    }
    const octet = encodeChar(ch);
    if (octet === null) return false;
    const fa = this.attributeOf(this.cursor);
    if (fa >= 0 && (this.attrs[fa] & FA.NUMERIC) !== 0 && !/[0-9.\-]/.test(ch)) {
      this.operatorError = 'numeric';
      return false;
    }
    if (this.insert) {
      // Insert mode: the field's characters from the cursor on move one right; that needs a NUL
      // (or a blank) at the field's end, else the real terminal inhibits input (operator error).
      const end = this.fieldEnd(this.cursor);
      if (this.chars[end] !== 0 && this.chars[end] !== 0x40) {
        this.operatorError = 'overflow';
        return false;
      }
      for (let p = end; p !== this.cursor;) {
        const prev = (p - 1 + this.size) % this.size;
        this.chars[p] = this.chars[prev];
        p = prev;
      }
    }
    this.chars[this.cursor] = octet;
    this.color[this.cursor] = 0;
    this.highlight[this.cursor] = 0;
    this.#touch(this.cursor);
    this.cursor = this.#skip((this.cursor + 1) % this.size);
    return true;
  }

  /**
   * Where the cursor lands from `p` after a typed character (the 3278's auto-skip): off each
   * field attribute onto the position after it, except past an auto-skip (protected and numeric)
   * field, where it goes to the next unprotected field (address 0 when there is none, as PT).
   */
  #skip(p: number): number {
    for (let k = 0; k < this.size && this.attrs[p] >= 0; k++) {
      const fa = this.attrs[p];
      if ((fa & FA.PROTECTED) !== 0 && (fa & FA.NUMERIC) !== 0) {
        const next = this.nextInput(p);
        p = next === p ? 0 : next;
      } else p = (p + 1) % this.size;
    }
    return p;
  }

  /** Reset (the RESET key): the operator error is cleared and the keyboard takes input again; insert mode ends. */
  reset(): void {
    this.operatorError = null;
    this.insert = false;
  }

  /** The host restores the keyboard (WCC bit 6, Erase All Unprotected): unlocked, no operator error. */
  restore(): void {
    this.locked = false;
    this.operatorError = null;
  }

  /** The last position of the field holding `address` (before the next attribute), or the end of an unformatted buffer. */
  fieldEnd(address: number): number {
    if (!this.formatted) return this.size - 1;
    let p = address;
    for (let i = 0; i < this.size; i++) {
      const next = (p + 1) % this.size;
      if (this.attrs[next] >= 0) return p;
      p = next;
    }
    return p;
  }

  /**
   * Erase EOF (GA23-0059 "ERASE EOF key"): NULs from the cursor to the end of its field (of the
   * buffer when unformatted), the MDT set. False, changing nothing, when the cursor is not in an
   * unprotected field or the keyboard is locked.
   */
  eraseEof(): boolean {
    if (this.locked || this.operatorError !== null || !this.isInput(this.cursor)) return false;
    const end = this.fieldEnd(this.cursor);
    for (let p = this.cursor; ; p = (p + 1) % this.size) {
      this.chars[p] = 0;
      this.color[p] = 0;
      this.highlight[p] = 0;
      if (p === end) break;
    }
    this.#touch(this.cursor);
    return true;
  }

  /** Delete (GA23-0059 "DEL key"): the character at the cursor goes, the rest of the field moves left, a NUL at its end. */
  deleteChar(): boolean {
    if (this.locked || this.operatorError !== null || !this.isInput(this.cursor)) return false;
    const end = this.fieldEnd(this.cursor);
    let p = this.cursor;
    while (p !== end) {
      const next = (p + 1) % this.size;
      this.chars[p] = this.chars[next];
      p = next;
    }
    this.chars[end] = 0;
    this.#touch(this.cursor);
    return true;
  }

  /** Backspace: the cursor one position left, and that position erased when it takes input. */
  backspace(): void {
    if (this.locked || this.operatorError !== null) return;
    const p = (this.cursor - 1 + this.size) % this.size;
    if (!this.isInput(p)) return;
    this.cursor = p;
    this.chars[p] = 0;
    this.#touch(p);
  }

  /** Moves the cursor by rows and columns, wrapping at the edges (the 3270 cursor keys). */
  move(dRow: number, dCol: number): void {
    this.cursor = (((this.cursor + dRow * this.cols + dCol) % this.size) + this.size) % this.size;
  }

  /** Clear (GA23-0059 "CLEAR key"): the whole buffer erased, unformatted, cursor at 0. */
  clear(): void {
    this.erase(false);
  }

  /** Resets the modified data tag of every field (WCC bit 7). */
  resetModified(): void {
    for (let i = 0; i < this.size; i++) if (this.attrs[i] >= 0) this.attrs[i] &= ~FA.MDT;
  }

  /**
   * The inbound data stream of an AID key (GA23-0059 "Read Modified"): the AID, the cursor
   * address, and for each field whose MDT is set an SBA order with the address of its first
   * position and its characters with the NULs left out. Clear and PA keys send the AID alone
   * (a "short read"). On an unformatted screen the whole buffer is the one field.
   */
  readModified(aid: number): Uint8Array {
    const out: number[] = [aid];
    if (aid === AID.CLEAR || aid === AID.PA1 || aid === AID.PA2 || aid === AID.PA3) return Uint8Array.from(out);
    out.push(...encodeAddress(this.cursor));
    if (!this.formatted) {
      for (const c of this.chars.subarray(0, this.size)) if (c !== 0) out.push(c);
      return Uint8Array.from(out);
    }
    for (const f of this.fields()) {
      if ((f.attribute & FA.MDT) === 0) continue;
      out.push(0x11, ...encodeAddress(f.start));
      for (let i = 0; i < f.length; i++) {
        const c = this.chars[(f.start + i) % this.size];
        if (c !== 0) out.push(c);
      }
    }
    return Uint8Array.from(out);
  }

  /** The inbound data stream of Read Buffer (GA23-0059): AID, cursor, then every position, SF and its attribute for each field. */
  readBuffer(aid: number): Uint8Array {
    const out: number[] = [aid, ...encodeAddress(this.cursor)];
    for (let i = 0; i < this.size; i++) {
      if (this.attrs[i] >= 0) out.push(0x1d, this.attrs[i]);
      else out.push(this.chars[i]);
    }
    return Uint8Array.from(out);
  }

  /** What position `address` shows: a space for an attribute, a nondisplay field's character, and NUL. */
  #shown(address: number, fa: number): string {
    if (this.attrs[address] >= 0) return ' ';
    if (fa >= 0 && (this.attrs[fa] & FA.DISPLAY) === NONDISPLAY) return ' ';
    return displayChar(this.chars[address]);
  }

  /** The screen as text: `rows` lines of `cols` characters (GA23-0059 display rules: attributes and nondisplay fields as spaces). */
  screenText(): string {
    const lines: string[] = [];
    let fa = this.attributeOf(this.size - 1);
    for (let r = 0; r < this.rows; r++) {
      let line = '';
      for (let c = 0; c < this.cols; c++) {
        const p = r * this.cols + c;
        if (this.attrs[p] >= 0) fa = p;
        line += this.#shown(p, fa);
      }
      lines.push(line);
    }
    return lines.join('\n');
  }

  /** The SGR parameters that draw position `p` of the field whose attribute is at `fa` (none for an attribute position). */
  #style(p: number, fa: number): string {
    if (this.attrs[p] >= 0) return '';
    const a = fa >= 0 ? this.attrs[fa] : 0;
    const hl = this.highlight[p] || (fa >= 0 ? this.highlight[fa] : 0);
    const bright = (a & FA.DISPLAY) === INTENSIFIED || hl === HIGHLIGHT.INTENSIFY;
    const input = fa >= 0 && (a & FA.PROTECTED) === 0;
    const sgr: number[] = [];
    if (bright) sgr.push(1);
    if (input || hl === HIGHLIGHT.UNDERSCORE) sgr.push(4);
    if (hl === HIGHLIGHT.BLINK) sgr.push(5);
    if (hl === HIGHLIGHT.REVERSE) sgr.push(7);
    if (this.colors) {
      const base = input
        ? bright
          ? BASE.inputBright
          : BASE.inputNormal
        : bright
          ? BASE.protectedBright
          : BASE.protectedNormal;
      const c = ANSI_COLOR[this.color[p]] ?? (fa >= 0 ? ANSI_COLOR[this.color[fa]] : undefined) ?? ANSI_COLOR[base];
      sgr.push(c);
    }
    return sgr.join(';');
  }

  /**
   * The screen as ANSI terminal text: clear, each row at its place (intensified fields bold,
   * unprotected fields underlined, the extended highlighting as blink, reverse and underline;
   * with `colors`, each field in its colour or the 3279's base colour of its kind), a status
   * line below with the keyboard state, and the cursor at its position.
   */
  ansi(status = ''): string {
    let out = '\x1b[0m\x1b[H\x1b[2J';
    let fa = this.attributeOf(this.size - 1);
    let style = '';
    for (let r = 0; r < this.rows; r++) {
      out += `\x1b[${r + 1};1H`;
      for (let c = 0; c < this.cols; c++) {
        const p = r * this.cols + c;
        if (this.attrs[p] >= 0) fa = p;
        const want = this.#style(p, fa);
        if (want !== style) {
          out += `\x1b[0${want === '' ? '' : ';' + want}m`;
          style = want;
        }
        out += this.#shown(p, fa);
      }
    }
    out += '\x1b[0m';
    const lock = this.operatorError !== null ? OPERATOR_ERROR[this.operatorError] : this.locked ? 'X SYSTEM' : '';
    const state = lock + (this.insert ? ' INSERT' : '');
    out += `\x1b[${this.rows + 1};1H\x1b[7m${(state + ' ' + status).trim().padEnd(this.cols).slice(0, this.cols)}\x1b[0m`;
    out += `\x1b[${Math.floor(this.cursor / this.cols) + 1};${(this.cursor % this.cols) + 1}H`;
    if (this.alarm) out += '\x07';
    return out;
  }
}
