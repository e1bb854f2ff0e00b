// Raw connections to a gateway for the tests of its limits and slots: what each got and when it
// ended, writes one octet at a time, and a bounded wait for either.

import net from 'node:net';

/** A raw connection to the gateway that records what it got and when it was closed. */
export interface Raw {
  sock: net.Socket;
  got: string;
  /** Milliseconds from the connection to the end of it (FIN or reset), or null while open. */
  closedAfter: number | null;
  closed: Promise<void>;
}

export function connect(port: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const sock = net.connect(port, '127.0.0.1');
    let done!: () => void;
    const raw: Raw = { sock, got: '', closedAfter: null, closed: new Promise((r) => (done = r)) };
    const end = () => {
      if (raw.closedAfter === null) raw.closedAfter = Date.now() - t0;
      done();
    };
    sock.on('data', (d) => (raw.got += d.toString('latin1')));
    sock.on('end', end);
    sock.on('close', end);
    sock.on('error', end);
    sock.once('connect', () => resolve(raw));
    sock.once('error', reject);
  });
}

/** Resolves when the connection ends, or after `ms` (whichever comes first). */
export async function endedWithin(raw: Raw, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([raw.closed, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/** Writes `text` one octet every `every` ms until the connection ends or the text is out. */
export function dribble(raw: Raw, text: string, every: number): () => void {
  let i = 0;
  const timer = setInterval(() => {
    if (raw.closedAfter !== null || i >= text.length || raw.sock.destroyed) return clearInterval(timer);
    raw.sock.write(text[i++]);
  }, every);
  return () => clearInterval(timer);
}

/** Resolves once `cond()` holds, checked every 10 ms; false if it still does not after `ms`. */
export async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}
