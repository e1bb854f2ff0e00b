// The parts of recordFetch() that need no server (src/archive/fetch.ts): the WARC-Protocol
// identifiers, the media types of the views and the transcript's text.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { warcProtocols, mediaTypeOf, transcriptText } from '../../src/archive/index.js';

// scheme | WARC-Protocol fields (the IIPC registry's identifiers; nntp, wais, prospero: DEVIATION)
const PROTOCOL_ROWS: Array<[string, string[]]> = [
  ['http', ['http/1.1']],
  ['HTTPS', ['http/1.1']],
  ['gopher', ['gopher']],
  ['ftp', ['ftp']],
  ['news', ['nntp']],
  ['nntp', ['nntp']],
  ['wais', ['wais']],
  ['prospero', ['prospero']],
  ['file', []],
  ['x-unknown', []],
  ['constructor', []],
  ['__proto__', []],
];

test('warcProtocols: one row per scheme', () => {
  for (const [scheme, out] of PROTOCOL_ROWS) assert.deepEqual(warcProtocols(scheme), out, scheme);
});

test("mediaTypeOf: a view given as plain text gets the view's type; other types are kept", () => {
  const meta = { scheme: 'ftp', url: 'ftp://h/', size: null, transcript: [] };
  const rows: Array<[string | null, string | null | undefined, string]> = [
    ['text/plain', 'ftp-listing', 'text/x-locator-ftp-listing'],
    [null, 'ftp-listing', 'text/x-locator-ftp-listing'],
    ['application/gopher-menu', 'gopher-menu', 'application/gopher-menu'],
    ['text/plain', null, 'text/plain'],
    [null, null, 'application/octet-stream'],
    ['text/x-locator-news-overview; charset=utf-8', 'news-overview', 'text/x-locator-news-overview; charset=utf-8'],
  ];
  for (const [contentType, view, out] of rows) assert.equal(mediaTypeOf({ ...meta, contentType, view }), out);
});

test('transcriptText: the lines of fetch --verbose, one per line whatever they hold', () => {
  assert.equal(
    transcriptText([
      { direction: 'info', text: 'connect h:21' },
      { direction: 'receive', text: '220 ready' },
      { direction: 'send', text: 'PASS ****' },
      { direction: 'receive', text: 'two\r\nlines' },
    ]),
    '* connect h:21\n< 220 ready\n> PASS ****\n< two lines\n',
  );
});
