// The framing core of the line-based clients: bytes and line ends (./bytes.ts), the line splitter
// (./lines.ts), the dot-terminated block codec (./dot.ts), the reply engine of FTP, SMTP and NNTP
// (./reply.ts, pure; ./reader.ts, over a Connection) and their common ReplyError (./errors.ts).

export * from './bytes.js';
export * from './lines.js';
export * from './dot.js';
export * from './reply.js';
export * from './errors.js';
export { ReplyReader, type ReplyReaderOptions } from './reader.js';
