// The public types of the decoded fields (locator/core: fieldsOf, SchemeFields, BuildFields and
// the fields type of each scheme of the specs), held exactly as they were published: each scheme's
// module declares its own and the table of src/schemes/builtin.ts gathers them by name, and this
// file checks that what users type-check against did not move. The checks are types: a change
// fails the compilation of the tests (tsc), before any test runs; the test below runs the same
// accessors on parsed URLs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  build,
  fieldsOf,
  parse,
  type AfsFields,
  type BuildFields,
  type CidFields,
  type FileFields,
  type FtpFields,
  type GopherFields,
  type GopherPlus,
  type HttpFields,
  type MailtoFields,
  type MidFields,
  type NewsFields,
  type NntpFields,
  type ProsperoFields,
  type SchemeFields,
  type SessionFields,
  type WaisFields,
} from '../../src/parser.js';
import type { WaisKind } from '../../src/schemes/wais.js';

/** true when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only when its type argument is true. */
function same<_T extends true>(): void {}

// Each fields type, member by member, as published.
same<
  Equal<FtpFields, { segments: readonly string[]; cwd: readonly string[]; name: string | null; ftptype: string | null }>
>();
same<
  Equal<
    HttpFields,
    { hpath: string | null; segments: readonly string[]; search: string | null; keywords: readonly string[] }
  >
>();
same<
  Equal<
    GopherFields,
    {
      gophertype: string;
      selector: string;
      search: string | null;
      gopherPlus: string | null;
      request: string;
      plus: GopherPlus | null;
    }
  >
>();
same<Equal<MailtoFields, { address: string }>>();
same<Equal<NewsFields, { kind: 'group' | 'article' | 'all'; group: string | null; messageId: string | null }>>();
same<Equal<NntpFields, { group: string | null; article: number | null }>>();
same<Equal<SessionFields, {}>>();
same<
  Equal<
    WaisFields,
    {
      kind: WaisKind;
      database: string | null;
      search: string | null;
      wtype: string | null;
      wpath: string | null;
      wlength: number | null;
      wlengthDigits: string | null;
      wpathFields: Array<{ number: number; contents: string }> | null;
    }
  >
>();
same<Equal<FileFields, { path: string | null; local: boolean }>>();
same<
  Equal<
    ProsperoFields,
    { hsoname: string | null; fields: Record<string, string>; version: string | null; attributes: string[] | null }
  >
>();
same<Equal<MidFields, { messageId: string; contentId: string | null }>>();
same<Equal<CidFields, { contentId: string }>>();
same<Equal<AfsFields, { cellname: string | null; path: string | null }>>();

// The map by scheme name: the 16 schemes of the specs, each with its type.
same<
  Equal<
    keyof SchemeFields,
    | 'ftp'
    | 'http'
    | 'https'
    | 'gopher'
    | 'mailto'
    | 'news'
    | 'nntp'
    | 'telnet'
    | 'rlogin'
    | 'tn3270'
    | 'wais'
    | 'file'
    | 'prospero'
    | 'mid'
    | 'cid'
    | 'afs'
  >
>();
same<
  Equal<
    SchemeFields,
    {
      ftp: FtpFields;
      http: HttpFields;
      https: HttpFields;
      gopher: GopherFields;
      mailto: MailtoFields;
      news: NewsFields;
      nntp: NntpFields;
      telnet: SessionFields;
      rlogin: SessionFields;
      tn3270: SessionFields;
      wais: WaisFields;
      file: FileFields;
      prospero: ProsperoFields;
      mid: MidFields;
      cid: CidFields;
      afs: AfsFields;
    }
  >
>();
same<Equal<BuildFields<'nntp'>['article'], number | null | undefined>>();

test('file and afs: a URL with no path (file-missing-path, afs-missing-path) has the path null, as its type says', () => {
  const none: string | null = fieldsOf(parse('file://'), 'file').path;
  assert.equal(none, null);
  assert.equal(fieldsOf(parse('file://node.gypi'), 'file').path, null);
  assert.equal(fieldsOf(parse('afs://cell.org'), 'afs').path, null);
  const file = fieldsOf(parse('file:///etc/motd'), 'file');
  // @ts-expect-error: the path may be null
  const path: string = file.path;
  assert.equal(path, '/etc/motd');
  const afs = fieldsOf(parse('afs://cell.org/usr/x'), 'afs');
  // @ts-expect-error: the path may be null
  const afsPath: string = afs.path;
  assert.equal(afsPath, '/usr/x');
});

test("a user's accessors of the typed fields: fieldsOf(parse(url), scheme).field and build(scheme, fields)", () => {
  const ftp = fieldsOf(parse('ftp://h.com/pub/f.txt;type=i'), 'ftp');
  const ftptype: string | null = ftp.ftptype;
  const segments: readonly string[] = ftp.segments;
  assert.equal(ftptype, 'i');
  assert.deepEqual(segments, ['pub', 'f.txt']);
  const gopher = fieldsOf(parse('gopher://h.com/0a%20b'), 'gopher');
  assert.equal(gopher.selector satisfies string, 'a b');
  const nntp = fieldsOf(parse('nntp://h.com/comp.lang/7'), 'nntp');
  assert.equal(nntp.article satisfies number | null, 7);
  const wais = fieldsOf(parse('wais://h.com/db?w'), 'wais');
  assert.equal(wais.kind satisfies WaisKind, 'index');
  // @ts-expect-error: an nntp URL's fields have no selector
  assert.equal(nntp.selector, undefined);
  // @ts-expect-error: the article is a number
  assert.throws(() => build('nntp', { host: 'h.com', group: 'g', article: 'x' }));
  assert.equal(build('nntp', { host: 'h.com', group: 'g', article: 7 }), 'nntp://h.com/g/7');
});
