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
  ENTER: 0x7d,
  CLEAR: 0x6d,
  PA1: 0x6c,
  PA2: 0x6e,
  PA3: 0x6b,
  PF: [0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0x7a, 0x7b, 0x7c],
} as const;

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

/** One field (GA23-0059 "Fields"): its attribute's address, the attribute, and where its data starts and how long it is. */
export interface Field {
  at: number;
  attribute: number;
  start: number;
  length: number;
}

/** The display buffer of one 3270 terminal (GA23-0059 chapter 3), default model 2: 24 x 80. */
export class Screen {
  readonly size: number;
  /** The octet (EBCDIC) at each position. */
  readonly chars: Uint8Array;
  /** The field attribute at each position, or -1 where the position holds a character. */
  readonly attrs: Int16Array;
  cursor = 0;
  /** The keyboard is locked from an AID until the host restores it (WCC bit 6). */
  locked = false;
  /** The host asked for the alarm (WCC bit 5) in its last write. */
  alarm = false;

  constructor(
    readonly rows = 24,
    readonly cols = 80,
  ) {
    this.size = rows * cols;
    this.chars = new Uint8Array(this.size);
    this.attrs = new Int16Array(this.size).fill(-1);
  }

  /** Erase (GA23-0059 Erase/Write): every position to NUL, no fields, cursor at 0. */
  erase(): void {
    this.chars.fill(0);
    this.attrs.fill(-1);
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
   * An operator typed `ch` (GA23-0059 "Keyboard"): into the cursor's position when it may take
   * input, then the cursor moves on (to the next field at the end of one). False when the
   * keyboard is locked, the position is protected, a numeric field gets a non-digit, or code
   * page 037 has no such character: nothing changes (the real terminal would inhibit input).
   */
  type(ch: string): boolean {
    if (this.locked || !this.isInput(this.cursor)) return false;
    const octet = encodeChar(ch);
    if (octet === null) return false;
    const fa = this.attributeOf(this.cursor);
    if (fa >= 0 && (this.attrs[fa] & FA.NUMERIC) !== 0 && !/[0-9.\-]/.test(ch)) return false;
    this.chars[this.cursor] = octet;
    this.#touch(this.cursor);
    const next = (this.cursor + 1) % this.size;
    this.cursor = this.attrs[next] >= 0 ? this.nextInput(this.cursor) : next;
    return true;
  }

  /** Backspace: the cursor one position left, and that position erased when it takes input. */
  backspace(): void {
    if (this.locked) return;
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
    this.erase();
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
      for (const c of this.chars) if (c !== 0) out.push(c);
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

  /**
   * The screen as ANSI terminal text: clear, each row at its place (intensified fields bold,
   * unprotected fields underlined), a status line below with the keyboard state, and the cursor
   * at its position.
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
        const a = fa >= 0 ? this.attrs[fa] : 0;
        const want =
          this.attrs[p] >= 0
            ? ''
            : ((a & FA.DISPLAY) === INTENSIFIED ? '1;' : '') + (fa >= 0 && (a & FA.PROTECTED) === 0 ? '4;' : '');
        if (want !== style) {
          out += `\x1b[0${want === '' ? '' : ';' + want.slice(0, -1)}m`;
          style = want;
        }
        out += this.#shown(p, fa);
      }
    }
    out += '\x1b[0m';
    const state = this.locked ? 'X SYSTEM' : '';
    out += `\x1b[${this.rows + 1};1H\x1b[7m${(state + ' ' + status).trim().padEnd(this.cols).slice(0, this.cols)}\x1b[0m`;
    out += `\x1b[${Math.floor(this.cursor / this.cols) + 1};${(this.cursor % this.cols) + 1}H`;
    if (this.alarm) out += '\x07';
    return out;
  }
}
