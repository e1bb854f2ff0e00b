// The keys of a 3270 operator, read from what a local (VT100/xterm) terminal sends: Enter,
// Tab, Backtab, the cursor keys, Home, Backspace, Delete, Insert, Erase EOF, Reset, Clear,
// PA1-PA3 and PF1-PF24 (IBM GA23-0059 "AID"; the escape sequences of ECMA-48 / xterm). Pure: bytes in, key events out, with an escape sequence
// split across writes kept until it is complete.

import { AID } from './screen.js';

/** One key. */
export type Key =
  | { kind: 'char'; ch: string }
  | { kind: 'aid'; aid: number; name: string }
  | {
      kind:
        | 'tab'
        | 'backtab'
        | 'up'
        | 'down'
        | 'left'
        | 'right'
        | 'home'
        | 'backspace'
        | 'delete'
        | 'insert'
        | 'eraseEof'
        | 'reset';
    };

/** xterm's "CSI n ~" function keys: F1-F12 as PF1-PF12. */
const TILDE: Record<string, number> = {
  '11': 1,
  '12': 2,
  '13': 3,
  '14': 4,
  '15': 5,
  '17': 6,
  '18': 7,
  '19': 8,
  '20': 9,
  '21': 10,
  '23': 11,
  '24': 12,
};
const SS3: Record<string, number> = { P: 1, Q: 2, R: 3, S: 4 };
const ARROWS: Record<string, Key['kind']> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home' };
/** xterm's other "CSI n ~" keys: Home, Insert, Delete; F13-F15 as PA1-PA3. */
const EDIT: Record<string, Key> = {
  '1': { kind: 'home' },
  '2': { kind: 'insert' },
  '3': { kind: 'delete' },
  '7': { kind: 'home' },
};
const PA_TILDE: Record<string, number> = { '25': 1, '26': 2, '28': 3 };

const pf = (n: number): Key => ({ kind: 'aid', aid: AID.PF[n - 1], name: `PF${n}` });
const pa = (n: number): Key => ({ kind: 'aid', aid: [AID.PA1, AID.PA2, AID.PA3][n - 1], name: `PA${n}` });

/**
 * A reader of typed bytes (GA23-0059 "AID"; ECMA-48 control sequences): returns the keys they
 * complete. CR or LF is Enter, TAB Tab, CSI Z Backtab, CSI/SS3 A-D the cursor keys, Home (CSI
 * H, CSI 1~) the first input field, DEL or BS Backspace, Delete (CSI 3~) Delete, Insert (CSI
 * 2~) Insert, Ctrl-K Erase EOF, Ctrl-R Reset, Ctrl-L (FF) Clear, F1-F12 (SS3 P-S, CSI 11~-24~)
 * PF1-PF12, Shift-F1 to Shift-F12 (xterm's `;2` modifier) PF13-PF24, Alt-1 to Alt-3 (ESC 1-3)
 * or F13-F15 (CSI 25~, 26~, 28~) PA1-PA3; other printable characters (UTF-8) are typed; other
 * controls and unknown sequences are dropped.
 */
export function keyReader(): (typed: Uint8Array) => Key[] {
  let pending = '';
  const decoder = new TextDecoder('utf-8');
  return (typed) => {
    const text = pending + decoder.decode(typed, { stream: true });
    pending = '';
    const keys: Key[] = [];
    let i = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === '\x1b') {
        const alt = /^\x1b([123])/.exec(text.slice(i));
        if (alt !== null) {
          keys.push(pa(Number(alt[1])));
          i += 2;
          continue;
        }
        const m = /^\x1b(?:\[([0-9;]*)([A-Za-z~])|O([A-Za-z]))/.exec(text.slice(i));
        if (m === null) {
          // An incomplete sequence waits for the next write; anything else after ESC is dropped.
          if (/^\x1b(\[[0-9;]*|O)?$/.test(text.slice(i))) pending = text.slice(i);
          i = pending !== '' ? text.length : i + 1;
          continue;
        }
        i += m[0].length;
        const final = m[2] ?? m[3];
        // xterm adds ";2" for Shift (CSI 1;2P is Shift-F1, CSI 15;2~ Shift-F5): 12 PF keys on.
        const [code, modifier] = (m[1] ?? '').split(';');
        const shift = modifier === '2' ? 12 : 0;
        if (SS3[final] !== undefined && (m[3] !== undefined || code === '1')) keys.push(pf(SS3[final] + shift));
        else if (ARROWS[final] !== undefined) keys.push({ kind: ARROWS[final] } as Key);
        else if (final === 'Z') keys.push({ kind: 'backtab' });
        else if (final === '~' && TILDE[code] !== undefined) keys.push(pf(TILDE[code] + shift));
        else if (final === '~' && PA_TILDE[code] !== undefined) keys.push(pa(PA_TILDE[code]));
        else if (final === '~' && EDIT[code] !== undefined) keys.push(EDIT[code]);
        continue;
      }
      i++;
      if (c === '\r' || c === '\n') {
        if (c === '\n' && text[i - 2] === '\r') continue; // CR LF is one Enter
        keys.push({ kind: 'aid', aid: AID.ENTER, name: 'Enter' });
      } else if (c === '\t') keys.push({ kind: 'tab' });
      else if (c === '\x7f' || c === '\b') keys.push({ kind: 'backspace' });
      else if (c === '\x0c') keys.push({ kind: 'aid', aid: AID.CLEAR, name: 'Clear' });
      else if (c === '\x0b') keys.push({ kind: 'eraseEof' });
      else if (c === '\x12') keys.push({ kind: 'reset' });
      else if (c >= ' ' && c !== '\x7f' && !(c >= '\x80' && c <= '\x9f')) keys.push({ kind: 'char', ch: c });
    }
    return keys;
  };
}
