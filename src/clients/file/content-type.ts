// The content type of a local file, from its name: a small table of the suffixes old archives
// hold, no dependency. A text type gets a charset from the file's first octets (see charsetOf).

/** Suffix (lower case, no dot) -> MIME type (RFC 2046, and the types registered since). */
const BY_SUFFIX: Readonly<Record<string, string>> = Object.freeze({
  txt: 'text/plain',
  text: 'text/plain',
  asc: 'text/plain',
  doc: 'text/plain',
  me: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  htm: 'text/html',
  html: 'text/html',
  css: 'text/css',
  xml: 'text/xml',
  c: 'text/plain',
  h: 'text/plain',
  ts: 'text/plain',
  js: 'text/javascript',
  mjs: 'text/javascript',
  json: 'application/json',
  sh: 'text/plain',
  py: 'text/plain',
  pl: 'text/plain',
  diff: 'text/plain',
  patch: 'text/plain',
  uri: 'text/uri-list',
  uris: 'text/uri-list',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  svg: 'image/svg+xml',
  xbm: 'image/x-xbitmap',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  pdf: 'application/pdf',
  ps: 'application/postscript',
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  z: 'application/x-compress',
  tar: 'application/x-tar',
  bz2: 'application/x-bzip2',
  xz: 'application/x-xz',
  wav: 'audio/wav',
  au: 'audio/basic',
  mpg: 'video/mpeg',
  mpeg: 'video/mpeg',
});

/** Names without a suffix that archives use for text (README, INDEX, ls-lR, ...), in lower case. */
const TEXT_NAMES: ReadonlySet<string> = new Set([
  'readme',
  'index',
  'install',
  'copying',
  'license',
  'changelog',
  'changes',
  'news',
  'todo',
  'authors',
  'makefile',
  'ls-lr',
]);

/**
 * The MIME type of a file named `name` (its last path segment), without parameters, or null when
 * the name says nothing. Not RFC 1738: a file: URL carries no type (3.10), so the name is read
 * as a web server reads it.
 */
export function typeOfName(name: string): string | null {
  const dot = name.lastIndexOf('.');
  if (dot > 0 && dot < name.length - 1) {
    const t = BY_SUFFIX[name.slice(dot + 1).toLowerCase()];
    if (t !== undefined) return t;
  }
  return TEXT_NAMES.has(name.toLowerCase()) ? 'text/plain' : null;
}

/** True for a type shown as text: text/*, and JSON (RFC 8259: UTF-8). */
export function isTextType(type: string): boolean {
  return type.startsWith('text/') || type === 'application/json';
}

/**
 * The charset of text whose first octets are `head` (RFC 2046 4.1.2: the charset parameter):
 * utf-8 when they decode as UTF-8 (a sequence cut at the end of `head` allowed), else
 * iso-8859-1, the 8-bit set of the documents that predate UTF-8 (any octet decodes).
 */
export function charsetOf(head: Uint8Array): 'utf-8' | 'iso-8859-1' {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'utf-8';
  } catch {
    return 'iso-8859-1';
  }
}

/** The Content-Type of a file: its name's type, with the charset of `head` when it is text. */
export function contentTypeOf(name: string, head: Uint8Array | null): string | null {
  const t = typeOfName(name);
  if (t === null || !isTextType(t) || t === 'application/json') return t;
  return `${t}; charset=${head === null ? 'utf-8' : charsetOf(head)}`;
}
