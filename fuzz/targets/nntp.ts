// Fuzz target: the NNTP parsers (RFC 3977 3.1, 3.1.1, 3.2, 5.2, 7.6.3, 8.3.2; RFC 2047; RFC
// 5322 2.2). Invariants: only LocatorError is thrown; undoing the dot-stuffing and splitting
// lines give the same in any chunking; a status line's code is 100-599; a listing line built
// from an overview or active line has its six or five fields, TAB-separated, and one line end.

import {
  parseReply,
  undotChunk,
  LineSplitter,
  parseOverviewLine,
  overviewListingLine,
  parseActiveLine,
  activeListingLine,
  parseHeaders,
  parseCapabilities,
  decodeEncodedWords,
  decodeText,
  bareMessageId,
  entryFromHeaders,
} from '../../src/clients/nntp/parser.js';
import { check, chunksOf, concatAll, cuts, randomOf, refusal, show } from './lib.js';
import { LocatorError } from '../../src/core/errors.js';

function undot(chunks: Uint8Array[]): unknown {
  const state = { atLineStart: true };
  const data: Uint8Array[] = [];
  let pending: Uint8Array = new Uint8Array(0);
  for (let i = 0; i < chunks.length; i++) {
    const r = undotChunk(concatAll([pending, chunks[i]]), state);
    data.push(r.data);
    pending = r.pending;
    if (r.done) return { data: concatAll(data), after: concatAll([r.rest, ...chunks.slice(i + 1)]) };
  }
  return { data: concatAll(data), pending };
}

function lines(chunks: Uint8Array[]): unknown {
  const s = new LineSplitter();
  const out: Uint8Array[] = [];
  try {
    for (const c of chunks) out.push(...s.push(c));
  } catch (e) {
    if (e instanceof LocatorError) return e.code;
    throw e;
  }
  return { out, end: s.end() };
}

function listingShape(line: string, fields: number): void {
  check(
    line.endsWith('\n') && line.indexOf('\n') === line.length - 1 && !line.includes('\r'),
    `listing line ${JSON.stringify(line)}`,
  );
  check(line.split('\t').length === fields, `listing line ${JSON.stringify(line)} has not ${fields} fields`);
}

export function fuzz(data: Uint8Array): void {
  const chunks = chunksOf(data, cuts(data.length, randomOf(data)));
  check(show(undot([data])) === show(undot(chunks)), 'dot-stuffed data read in chunks differs');
  check(show(lines([data])) === show(lines(chunks)), 'lines split in chunks differ');
  const text = decodeText(data);
  const all = text.split(/\r?\n/);
  for (const line of all) {
    const r = refusal(() => parseReply(line));
    if (!(r instanceof LocatorError)) check(r.code >= 100 && r.code <= 599, `status ${r.code}`);
    const o = parseOverviewLine(line);
    if (o !== null) {
      check(/^[0-9]+$/.test(o.number) && (o.bytes === '' || /^[0-9]+$/.test(o.bytes)), `overview ${show(o)}`);
      listingShape(overviewListingLine(o, 'news:' + o.messageId), 6);
    }
    const a = parseActiveLine(line);
    if (a !== null) listingShape(activeListingLine(a, 'news:' + a.group), 5);
    const id = bareMessageId(line);
    if (id !== null) check(id.includes('@') && !/[<>\s]/.test(id), `message id ${id}`);
    void decodeEncodedWords(line);
  }
  const headers = parseHeaders(all);
  for (const [k] of headers) check(k === k.toLowerCase() && !k.includes(':'), `header name ${k}`);
  listingShape(overviewListingLine(entryFromHeaders('1', headers), ''), 6);
  for (const [k] of parseCapabilities(all)) check(k === k.toUpperCase() && k !== '', `capability ${k}`);
}
