// A small TN3270E server (RFC 2355) for the tests: the server's side of the negotiation (DO
// TN3270E, SEND DEVICE-TYPE, DEVICE-TYPE IS ... CONNECT, a counter-proposal of the functions:
// RESPONSES only), then a console drawn with Erase/Write Alternate in the model's alternate size,
// with colours and highlighting (SFE, SA), that runs what is typed in its command field: `D T`
// answers a fixed time line, any other word is echoed, PA1-PA3 and PF keys are named, `NVT`
// switches to NVT-DATA until a line comes back, PF3 logs off (the server closes). Every 3270-DATA
// record asks for a response (ALWAYS-RESPONSE); the responses received are kept. A peer that
// s3270 (the x3270 family's scripted client) accepts is a fair peer for locator's client.
import net from 'node:net';
import { decodeEbcdic, encodeChar } from '../../../src/clients/tn3270/ebcdic.js';
import { encodeAddress } from '../../../src/clients/tn3270/screen.js';

const IAC = 255;
const SB = 250;
const SE = 240;
const DO = 253;
const WILL = 251;
const WONT = 252;
const EOR = 239;
const TN3270E = 40;
const E = { CONNECT: 1, DEVICE_TYPE: 2, FUNCTIONS: 3, IS: 4, REASON: 5, REJECT: 6, REQUEST: 7, SEND: 8 };
const RESPONSES = 2;
const SIZES: Record<string, [number, number]> = { '2': [24, 80], '3': [32, 80], '4': [43, 80], '5': [27, 132] };

const ebcdic = (s: string) => [...s].map((c) => encodeChar(c) ?? 0x40);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** What one client did, for the tests' assertions. */
export interface ClientLog {
  deviceType: string;
  functions: number[];
  /** The SEQ-NUMBERs of the host's records, and the responses (seq, flag) the client sent. */
  sent: number[];
  responses: { seq: number; flag: number }[];
  /** The AIDs received, as names, and the commands typed. */
  aids: string[];
  commands: string[];
  /** NVT lines received. */
  nvt: string[];
}

const AIDS: Record<number, string> = { 0x7d: 'ENTER', 0x6d: 'CLEAR', 0x6c: 'PA1', 0x6e: 'PA2', 0x6b: 'PA3' };
for (let n = 1; n <= 12; n++)
  AIDS[[0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0x7a, 0x7b, 0x7c][n - 1]] = `PF${n}`;

/** Splits what a client sent into telnet subnegotiations, negotiations and records (IAC IAC undone). */
function* telnetUnits(
  buf: number[],
): Generator<
  { kind: 'sb'; data: number[] } | { kind: 'verb'; verb: number; option: number } | { kind: 'record'; data: number[] }
> {
  // The caller keeps what is left in buf (an incomplete unit).
  let record: number[] = [];
  let i = 0;
  let consumed = 0;
  while (i < buf.length) {
    if (buf[i] !== IAC) {
      record.push(buf[i++]);
      continue;
    }
    if (i + 1 >= buf.length) break;
    const c = buf[i + 1];
    if (c === IAC) {
      record.push(IAC);
      i += 2;
    } else if (c === EOR) {
      yield { kind: 'record', data: record };
      record = [];
      i += 2;
      consumed = i;
    } else if (c === SB) {
      const end = buf.findIndex((b, k) => k > i && b === SE && buf[k - 1] === IAC);
      if (end < 0) break;
      yield { kind: 'sb', data: buf.slice(i + 2, end - 1) };
      i = end + 1;
      if (record.length === 0) consumed = i;
    } else if (c >= 251 && c <= 254) {
      if (i + 2 >= buf.length) break;
      yield { kind: 'verb', verb: c, option: buf[i + 2] };
      i += 3;
      if (record.length === 0) consumed = i;
    } else {
      i += 2;
      if (record.length === 0) consumed = i;
    }
  }
  buf.splice(0, consumed);
}

/** Starts the server on 127.0.0.1, port 0. */
export async function tn3270eServer(): Promise<{
  port: number;
  clients: ClientLog[];
  close(): Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  const clients: ClientLog[] = [];
  const server = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => {});
    const log: ClientLog = { deviceType: '', functions: [], sent: [], responses: [], aids: [], commands: [], nvt: [] };
    clients.push(log);
    let seq = 0;
    let size: [number, number] = [24, 80];
    let nvt = false;
    const history: string[] = [];
    const sb = (data: number[]) => sock.write(Uint8Array.from([IAC, SB, TN3270E, ...data, IAC, SE]));
    const record = (type: number, flag: number, data: number[]) => {
      const body = [type, 0, flag, (seq >> 8) & 0xff, seq & 0xff, ...data].flatMap((b) =>
        b === IAC ? [IAC, IAC] : [b],
      );
      if (type === 0) log.sent.push(seq);
      seq++;
      sock.write(Uint8Array.from([...body, IAC, EOR]));
    };
    const at = (row: number, col: number) => [0x11, ...encodeAddress(row * size[1] + col)];
    const screen = () => {
      const [rows] = size;
      const d: number[] = [0x7e, 0xc3]; // EWA, WCC: reset the keyboard and the MDTs
      // Title: protected, intensified, turquoise, reverse.
      d.push(...at(0, 0), 0x29, 0x03, 0xc0, 0xe8, 0x42, 0xf5, 0x41, 0xf2, ...ebcdic(' LOCATOR TEST CONSOLE '));
      d.push(0x1d, 0x60);
      d.push(...at(1, 0), 0x29, 0x02, 0xc0, 0x60, 0x42, 0xf1, ...ebcdic(`MODEL ${log.deviceType.split('-')[2]}`));
      history.slice(-(rows - 6)).forEach((line, k) => {
        d.push(...at(3 + k, 0), 0x1d, 0x60, 0x28, 0x42, k % 2 === 0 ? 0xf7 : 0xf4, ...ebcdic(line), 0x28, 0x00, 0x00);
      });
      // The command line: a label, an unprotected underscored yellow field of 40 with the cursor, then protected.
      d.push(...at(rows - 2, 0), 0x1d, 0xe8, ...ebcdic('COMMAND ===>'));
      d.push(0x29, 0x02, 0xc0, 0x40, 0x41, 0xf4, 0x13, ...at(rows - 2, 54), 0x1d, 0x60);
      // The status line: red.
      d.push(...at(rows - 1, 0), 0x29, 0x02, 0xc0, 0x60, 0x42, 0xf2, ...ebcdic('READY'));
      record(0x00, 0x02, d);
    };
    const run = (aid: string, text: string) => {
      log.aids.push(aid);
      if (aid === 'PF3') {
        sock.end();
        return;
      }
      if (aid !== 'ENTER') history.push(`${aid} PRESSED`);
      else if (text !== '') {
        log.commands.push(text);
        history.push(`> ${text}`);
        if (text === 'D T') history.push('IEE136I LOCAL: TIME=12.00.00 DATE=2026.331');
        else if (text === 'NVT') {
          nvt = true;
          record(0x05, 0x00, ascii('NVT MODE: TYPE A LINE\r\n'));
          return;
        } else history.push(`IEE305I ${text.split(' ')[0]} COMMAND ACCEPTED`);
      }
      screen();
    };
    let nvtLine = '';
    const message = (r: number[]) => {
      if (r.length < 5) return;
      const [type, , flag, s1, s2] = r;
      const data = r.slice(5);
      if (type === 0x02) log.responses.push({ seq: (s1 << 8) | s2, flag });
      else if (type === 0x05 && nvt) {
        nvtLine += String.fromCharCode(...data);
        const m = /^(.*?)\r\0?\n?/s.exec(nvtLine);
        if (m !== null) {
          log.nvt.push(m[1]);
          nvtLine = '';
          nvt = false;
          history.push(`NVT LINE: ${m[1]}`);
          screen();
        }
      } else if (type === 0x00 && data.length > 0) {
        const aid = AIDS[data[0]] ?? `AID ${data[0]}`;
        const sba = data.indexOf(0x11, 3);
        const text = sba < 0 ? '' : decodeEbcdic(Uint8Array.from(data.slice(sba + 3))).trim();
        run(aid, text);
      }
    };
    const buf: number[] = [];
    sock.on('data', (chunk) => {
      buf.push(...chunk);
      for (const u of telnetUnits(buf)) {
        if (u.kind === 'verb' && u.option === TN3270E && u.verb === WILL) sb([E.SEND, E.DEVICE_TYPE]);
        else if (u.kind === 'verb' && u.option === TN3270E && u.verb === WONT) sock.end();
        else if (u.kind === 'verb' && u.verb === WILL) sock.write(Uint8Array.of(IAC, 254, u.option));
        else if (u.kind === 'sb' && u.data[0] === TN3270E) {
          const d = u.data.slice(1);
          if (d[0] === E.DEVICE_TYPE && d[1] === E.REQUEST) {
            const c = d.indexOf(E.CONNECT, 2);
            const type = String.fromCharCode(...d.slice(2, c < 0 ? undefined : c));
            const m = /^IBM-327[89]-([2-5])(-E)?$/.exec(type);
            if (m === null) sb([E.DEVICE_TYPE, E.REJECT, E.REASON, 4]);
            else {
              log.deviceType = type;
              size = SIZES[m[1]];
              sb([E.DEVICE_TYPE, E.IS, ...ascii(type), E.CONNECT, ...ascii('LU0001')]);
            }
          } else if (d[0] === E.FUNCTIONS && d[1] === E.REQUEST) {
            const asked = d.slice(2);
            if (asked.length === 1 && asked[0] === RESPONSES) {
              log.functions = [RESPONSES];
              sb([E.FUNCTIONS, E.IS, RESPONSES]);
              screen();
            } else sb([E.FUNCTIONS, E.REQUEST, RESPONSES]); // the counter-proposal (RFC 2355 7.2)
          } else if (d[0] === E.FUNCTIONS && d[1] === E.IS) {
            log.functions = d.slice(2);
            screen();
          }
        } else if (u.kind === 'record') message(u.data);
      }
    });
    sock.write(Uint8Array.of(IAC, DO, TN3270E));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    clients,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
