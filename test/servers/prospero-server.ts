// A Prospero directory server of ours, for the tests only (Debian has none, and the historic
// server does not build: test/data/docs/test-servers.md section 11). UDP on 127.0.0.1, port 0.
// It answers GET-OBJECT-INFO from a table of objects, and DIRECTORY with LIST (Prospero v5 3.3,
// 3.5) from a table of directories (or a function, for a huge one made on demand), framing its replies the way the historic
// server's lib/ardp/ardp_respond.c does: a one-packet reply with a 3-octet header (octet 0 and
// the connection id), the packets of a longer one with 7 octets (id, packet number, total), and
// a packet that asks for an acknowledgement with 12 (received-through, wait, flags 0x80). It
// reads headers with code of its own, not the client's ardp.ts, so that a mistake in one is not
// hidden by the same mistake in the other. Faults on demand: packets lost, sent twice, sent in
// reverse order, no answer at all, a datagram of our choosing.

import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

export interface ServerOptions {
  /** hsoname -> the reply lines (without LF) for GET-OBJECT-INFO on it. */
  objects: Record<string, string[]>;
  /** hsoname -> the reply lines for DIRECTORY and LIST on it (LINK, ATTRIBUTE, NONE-FOUND, FORWARDED). */
  directories?: Record<string, string[] | (() => string[])>;
  /** Data octets per reply packet (default 1250, the historic limit). */
  packetSize?: number;
  /** Lose reply packet `seq` on its `attempt`-th sending (1 = the first). */
  drop?: (seq: number, attempt: number) => boolean;
  /** Send every reply packet twice. */
  duplicate?: boolean;
  /** Send the packets of a reply last first. */
  reverse?: boolean;
  /** Never answer. */
  silent?: boolean;
  /** Answer with these datagrams instead of the reply (garbage, a refusal, a redirect). */
  raw?: (cid: number) => Uint8Array[];
  /** Ask for an acknowledgement on the last packet (flags bit 7, a 12-octet header). */
  askAck?: boolean;
}

export interface ProsperoServer {
  port: number;
  /** The request texts, in order (each once, however often it was sent). */
  requests: string[];
  /** Every datagram received, as it came. */
  datagrams: Buffer[];
  /** Acknowledgements received (packet number 0): [cid, received-through]. */
  acks: Array<[number, number]>;
  close(): Promise<void>;
}

const u16 = (b: Buffer, i: number) => b.readUInt16BE(i);

/** Splits a request line into tokens: spaces and tabs separate, quotes quote, '' is a quote. */
function tokens(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let any = false;
  let q = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) {
      if (c === "'" && line[i + 1] === "'") {
        cur += "'";
        i++;
      } else if (c === "'") q = false;
      else cur += c;
    } else if (c === "'") {
      q = true;
      any = true;
    } else if (c === ' ' || c === '\t') {
      if (any) out.push(cur);
      cur = '';
      any = false;
    } else {
      cur += c;
      any = true;
    }
  }
  if (any) out.push(cur);
  return out;
}

/** The reply text to a request text (Prospero v5 3.1, 3.3, 3.5, 3.7, 4). */
function answer(
  text: string,
  objects: Record<string, string[]>,
  directories: Record<string, string[] | (() => string[])>,
): string {
  const out: string[] = [];
  let dir: string | null = null;
  const lines = text.split('\n').filter((l) => l !== '');
  if (!/^VERSION 5( |$)/.test(lines[0] ?? '')) return 'VERSION-NOT-SUPPORTED TRY 5\n';
  for (const line of lines.slice(1)) {
    const t = tokens(line);
    if (t[0] === 'GET-OBJECT-INFO') {
      if (t.length !== 5 || t[2] !== 'ASCII') {
        out.push(`ERROR malformed GET-OBJECT-INFO: ${line}`);
        continue;
      }
      const lines = objects[t[3]];
      // a directory has no access method: the attributes asked for are none
      if (lines === undefined)
        out.push(Object.hasOwn(directories, t[3]) ? 'NONE-FOUND' : `FAILURE NOT-FOUND OBJECT ${t[3]}`);
      else out.push(...lines);
    } else if (t[0] === 'DIRECTORY') {
      // DIRECTORY <hsoname-type> <hsoname> [<object-version>] (3.3)
      if ((t.length !== 3 && t.length !== 4) || t[1] !== 'ASCII') {
        out.push(`ERROR malformed DIRECTORY: ${line}`);
        break;
      }
      dir = t[2];
      if (!Object.hasOwn(directories, dir)) {
        out.push(Object.hasOwn(objects, dir) ? 'FAILURE NOT-A-DIRECTORY' : `FAILURE NOT-FOUND DIRECTORY ${dir}`);
        break;
      }
    } else if (t[0] === 'LIST') {
      // LIST <options> COMPONENTS [<name-component>...] (3.5); no component: "*"
      if (dir === null || t.length < 3 || t[2] !== 'COMPONENTS') {
        out.push(`ERROR malformed LIST, or no DIRECTORY before it: ${line}`);
        continue;
      }
      const d = directories[dir];
      const lines = typeof d === 'function' ? d() : d;
      out.push(...(lines.length === 0 ? ['NONE-FOUND'] : lines));
    } else if (t[0] === 'SELECT' || t[0] === 'AUTHENTICATE') {
      // accepted, nothing to say
    } else out.push(`ERROR unknown command ${t[0]}`);
  }
  return out.map((l) => l + '\n').join('');
}

interface Pending {
  total: number;
  parts: Map<number, Buffer>;
  /** The reply packets, once made. */
  reply: Buffer[] | null;
  attempts: Map<number, number>;
}

/** Starts the server on 127.0.0.1, an ephemeral port. */
export async function startProsperoServer(opts: ServerOptions): Promise<ProsperoServer> {
  const socket = dgram.createSocket('udp4');
  const conns = new Map<string, Pending>();
  const server: ProsperoServer = {
    port: 0,
    requests: [],
    datagrams: [],
    acks: [],
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  const size = opts.packetSize ?? 1250;

  function frame(cid: number, seq: number, total: number, data: Buffer, ask: boolean): Buffer {
    if (total === 1 && !ask) {
      const h = Buffer.alloc(3);
      h[0] = 3;
      h.writeUInt16BE(cid, 1);
      return Buffer.concat([h, data]);
    }
    const hlen = ask ? 12 : 7;
    const h = Buffer.alloc(hlen);
    h[0] = hlen;
    h.writeUInt16BE(cid, 1);
    h.writeUInt16BE(seq, 3);
    h.writeUInt16BE(total, 5);
    if (ask) {
      h.writeUInt16BE(1, 7); // received through: the request's one packet
      h.writeUInt16BE(0, 9); // wait: the client's own backoff
      h[11] = 0x80; // please acknowledge
    }
    return Buffer.concat([h, data]);
  }

  function sendFrom(p: Pending, cid: number, through: number, to: dgram.RemoteInfo): void {
    if (p.reply === null) return;
    let order = p.reply.map((b, i) => [i + 1, b] as const).filter(([seq]) => seq > through);
    if (opts.reverse) order = order.reverse();
    for (const [seq, b] of order) {
      const n = (p.attempts.get(seq) ?? 0) + 1;
      p.attempts.set(seq, n);
      if (opts.drop?.(seq, n)) continue;
      socket.send(b, to.port, to.address);
      if (opts.duplicate) socket.send(b, to.port, to.address);
    }
  }

  socket.on('message', (b, rinfo) => {
    server.datagrams.push(b);
    const hlen = b[0] & 0x3f;
    const cid = hlen >= 3 ? u16(b, 1) : 0;
    const seq = hlen >= 5 ? u16(b, 3) : 1;
    const total = hlen >= 7 ? u16(b, 5) || 1 : 1;
    const through = hlen >= 9 ? u16(b, 7) : 0;
    const key = `${rinfo.address}:${rinfo.port}:${cid}`;
    if (seq === 0) {
      server.acks.push([cid, through]);
      const p = conns.get(key);
      if (p?.reply && through < p.reply.length) sendFrom(p, cid, through, rinfo);
      return;
    }
    let p = conns.get(key);
    if (p === undefined) {
      p = { total, parts: new Map(), reply: null, attempts: new Map() };
      conns.set(key, p);
    }
    if (p.reply !== null) {
      // A retransmitted request: send what the client says it lacks (ARDP octets 7-8).
      sendFrom(p, cid, through, rinfo);
      return;
    }
    p.parts.set(seq, b.subarray(hlen));
    if (p.parts.size < p.total || opts.silent) return;
    const text = Buffer.concat([...Array(p.total)].map((_, i) => p!.parts.get(i + 1) ?? Buffer.alloc(0))).toString(
      'latin1',
    );
    server.requests.push(text);
    if (opts.raw) {
      for (const d of opts.raw(cid)) socket.send(d, rinfo.port, rinfo.address);
      return;
    }
    const reply = Buffer.from(answer(text, opts.objects, opts.directories ?? {}), 'latin1');
    const chunks: Buffer[] = [];
    for (let i = 0; i < reply.length; i += size) chunks.push(reply.subarray(i, i + size));
    if (chunks.length === 0) chunks.push(Buffer.alloc(0));
    p.reply = chunks.map((c, i) =>
      frame(cid, i + 1, chunks.length, c, opts.askAck === true && i === chunks.length - 1),
    );
    sendFrom(p, cid, 0, rinfo);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  server.port = (socket.address() as AddressInfo).port;
  return server;
}
