// The worker thread of ThreadWarcWriter (writer-thread.ts): one WarcWriter, fed by messages. A
// batch of records given whole is written and answered with one message; a streamed record comes
// in batches of octets, each acknowledged once the writer has taken it (the sender waits on those
// acknowledgements past a bound).

import { parentPort, workerData } from 'node:worker_threads';
import { WarcWriter, type WriterOptions, type WrittenRecord } from './writer.js';
import { toWire, type FromWorker, type Outcome, type ToWorker } from './writer-thread.js';

const port = parentPort!;
const writer = new WarcWriter(workerData as WriterOptions);
const post = (m: FromWorker) => port.postMessage(m);

/** The batches of octets of one streamed record, as the writer reads them. */
class Feed implements AsyncIterable<Uint8Array> {
  private readonly queue: Array<{ bytes: Uint8Array; end: boolean }> = [];
  private wake: (() => void) | null = null;
  private aborted = false;

  constructor(private readonly id: number) {}

  push(bytes: Uint8Array, end: boolean): void {
    this.queue.push({ bytes, end });
    this.wake?.();
  }

  abort(): void {
    this.aborted = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      while (this.queue.length === 0 && !this.aborted) await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
      if (this.aborted) throw new Error('the block stream failed before its end');
      const { bytes, end } = this.queue.shift()!;
      yield bytes;
      if (end) return;
      // Taken (in the writer's spool): the sender may send more.
      post({ t: 'took', id: this.id, bytes: bytes.byteLength });
    }
  }
}

const feeds = new Map<number, Feed>();

function outcome(id: number, p: Promise<WrittenRecord>): Promise<Outcome> {
  return p.then(
    (record) => ({ id, record }),
    (e) => ({ id, error: toWire(e) }),
  );
}

port.on('message', (m: ToWorker) => {
  switch (m.t) {
    case 'batch': {
      const all = m.records.map((r) => outcome(r.id, writer.write({ ...r.head, block: r.bytes })));
      void Promise.all(all).then((outcomes) => post({ t: 'done', outcomes }));
      break;
    }
    case 'rec': {
      let block: Uint8Array | Feed = m.bytes;
      if (!m.end) {
        const feed = new Feed(m.id);
        feed.push(m.bytes, false);
        feeds.set(m.id, feed);
        block = feed;
      }
      void outcome(m.id, writer.write({ ...m.head, block })).then((o) => {
        feeds.delete(m.id);
        post({ t: 'done', outcomes: [o] });
      });
      break;
    }
    case 'more': {
      const feed = feeds.get(m.id);
      feed?.push(m.bytes, m.end);
      if (m.end) feeds.delete(m.id);
      break;
    }
    case 'abort':
      feeds.get(m.id)?.abort();
      feeds.delete(m.id);
      break;
    case 'close':
      // The answer sent, the port closes and the thread ends.
      writer
        .close()
        .then(
          (files) => post({ t: 'closed', files }),
          (e) => post({ t: 'closefail', error: toWire(e) }),
        )
        .finally(() => port.close());
      break;
  }
});
