// The keys of a 3270 operator, read from what a local (VT100/xterm) terminal sends: Enter,
// Tab, Backtab, the cursor keys, Backspace, Clear and PF1-PF12 (IBM GA23-0059 "AID"; the
// escape sequences of ECMA-48 / xterm). Pure: bytes in, key events out, with an escape sequence
// split across writes kept until it is complete.

import { AID } from './screen.js';

/** One key. */
export type Key =
  | { kind: 'char'; ch: string }
  | { kind: 'aid'; aid: number; name: string }
  | { kind: 'tab' | 'backtab' | 'up' | 'down' | 'left' | 'right' | 'backspace' };

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
const ARROWS: Record<string, Key['kind']> = { A: 'up', B: 'down', C: 'right', D: 'left' };

const pf = (n: number): Key => ({ kind: 'aid', aid: AID.PF[n - 1], name: `PF${n}` });

/**
 * A reader of typed bytes (GA23-0059 "AID"; ECMA-48 control sequences): returns the keys they
 * complete. CR or LF is Enter, TAB Tab, CSI Z Backtab, CSI/SS3 A-D the cursor keys, DEL or BS
 * Backspace, Ctrl-L (FF) Clear, F1-F12 (SS3 P-S, CSI 11~-24~) PF1-PF12; other printable
 * characters (UTF-8) are typed; other controls and unknown sequences are dropped.
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
        const m = /^\x1b(?:\[([0-9;]*)([A-Za-z~])|O([A-Za-z]))/.exec(text.slice(i));
        if (m === null) {
          // An incomplete sequence waits for the next write; anything else after ESC is dropped.
          if (/^\x1b(\[[0-9;]*|O)?$/.test(text.slice(i))) pending = text.slice(i);
          i = pending !== '' ? text.length : i + 1;
          continue;
        }
        i += m[0].length;
        const final = m[2] ?? m[3];
        if (m[3] !== undefined && SS3[final] !== undefined) keys.push(pf(SS3[final]));
        else if (ARROWS[final] !== undefined) keys.push({ kind: ARROWS[final] } as Key);
        else if (final === 'Z') keys.push({ kind: 'backtab' });
        else if (final === '~' && TILDE[m[1]] !== undefined) keys.push(pf(TILDE[m[1]]));
        continue;
      }
      i++;
      if (c === '\r' || c === '\n') {
        if (c === '\n' && text[i - 2] === '\r') continue; // CR LF is one Enter
        keys.push({ kind: 'aid', aid: AID.ENTER, name: 'Enter' });
      } else if (c === '\t') keys.push({ kind: 'tab' });
      else if (c === '\x7f' || c === '\b') keys.push({ kind: 'backspace' });
      else if (c === '\x0c') keys.push({ kind: 'aid', aid: AID.CLEAR, name: 'Clear' });
      else if (c >= ' ' && c !== '\x7f' && !(c >= '\x80' && c <= '\x9f')) keys.push({ kind: 'char', ch: c });
    }
    return keys;
  };
}
