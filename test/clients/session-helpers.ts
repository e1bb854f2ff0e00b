// Helpers for the session tests (rlogin, tn3270): read a session's output until a pattern shows
// up, within a bounded time.
import type { InteractiveSession } from '../../src/clients/interactive.js';

/** A reader over `session.output` that keeps everything read so far as latin1 text. */
export function outputReader(session: InteractiveSession): {
  text: () => string;
  until: (re: RegExp, ms?: number) => Promise<string>;
  end: (ms?: number) => Promise<string>;
} {
  const reader = session.output.getReader();
  let text = '';
  let ended = false;
  let failure: unknown = null;
  let pending: Promise<void> | null = null;
  const step = (): Promise<void> => {
    pending ??= reader.read().then(
      ({ done, value }) => {
        pending = null;
        if (done) ended = true;
        else text += Buffer.from(value).toString('latin1');
      },
      (e) => {
        pending = null;
        ended = true;
        failure = e;
      },
    );
    return pending;
  };
  const wait = async (ok: () => boolean, what: string, ms: number) => {
    const deadline = Date.now() + ms;
    while (!ok()) {
      if (ended) throw failure ?? new Error(`the output ended before ${what}; it was ${JSON.stringify(text)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${ms} ms; the output was ${JSON.stringify(text)}`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([step(), new Promise((r) => (timer = setTimeout(r, left)))]);
      clearTimeout(timer);
    }
  };
  return {
    text: () => text,
    async until(re, ms = 5000) {
      await wait(() => re.test(text), String(re), ms);
      return text;
    },
    async end(ms = 5000) {
      await wait(() => ended, 'end of the output', ms);
      if (failure !== null) throw failure;
      return text;
    },
  };
}
