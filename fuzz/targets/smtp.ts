// Fuzz target: the SMTP reply parser (RFC 5321 4.2, 4.2.1; RFC 2034; RFC 1869). Invariants: only
// LocatorError is thrown; replies are the same in any chunking; each reply's code is 200-559
// with a second digit 0-5, every line holds it, the texts match the lines; the enhanced code,
// when read, starts with the reply's class; EHLO keywords are upper case without white space.

import { parseReplies, parseEhlo, queueId } from '../../src/clients/smtp/reply.js';
import { check } from './lib.js';
import { sameInChunks } from './stream.js';

export function fuzz(data: Uint8Array): void {
  const r = sameInChunks(parseReplies, data);
  if (typeof r === 'string') return;
  for (const reply of r.replies) {
    check(reply.code >= 200 && reply.code <= 559 && Math.floor(reply.code / 10) % 10 <= 5, `reply code ${reply.code}`);
    check(reply.lines.length === reply.texts.length && reply.lines.length > 0, 'one text per line');
    for (const l of reply.lines) check(l.startsWith(String(reply.code)), `a line without the code: ${l}`);
    if (reply.enhanced !== null) check(reply.enhanced[0] === String(reply.code)[0], `enhanced ${reply.enhanced}`);
    for (const [k] of parseEhlo(reply))
      check(k === k.toUpperCase() && !/\s/.test(k), `EHLO keyword ${JSON.stringify(k)}`);
    const id = queueId(reply);
    check(id === null || (id.length > 0 && !/\s/.test(id)), `queue id ${JSON.stringify(id)}`);
  }
}
