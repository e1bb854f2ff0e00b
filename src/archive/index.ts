// The WARC archive (ISO 28500, WARC 1.1): writer, reader, CDXJ index, resume and the records of
// a client's fetch. Node only; nothing in the core or the clients imports it, and the CLI loads
// it on first use (docs/archive.md).

export {
  WarcWriter,
  newRecordId,
  warcDate,
  warcFields,
  REVISIT_IDENTICAL_PAYLOAD,
  WARC_NAME_TAKEN,
  WARC_WRITER_CLOSED,
  WARC_RECORD_REQUIRES,
  type RecordInput,
  type RecordWriter,
  type RecordType,
  type WriterOptions,
  type WrittenRecord,
} from './writer.js';
export {
  ThreadWarcWriter,
  WARC_WRITER_FAILED,
  MAX_INFLIGHT,
  BATCH,
  BATCH_RECORDS,
  type ThreadWriterOptions,
} from './writer-thread.js';
export {
  readWarc,
  parseHead,
  WARC_BAD_RECORD,
  type WarcRecord,
  type RecordEnd,
  type ReadOptions,
  type ReadDamage,
  type DigestCheck,
} from './reader.js';
export { WARC_TRUNCATED, WARC_BAD_GZIP } from './gzip.js';
export {
  base32,
  fromBase32,
  Digester,
  HttpPayload,
  parseDigest,
  WARC_BAD_DIGEST,
  type DigestAlgorithm,
} from './digest.js';
export { surt, cdxj, cdxjLine, cdxTimestamp, entryOf, indexWarc, type IndexEntry } from './cdxj.js';
export { repairWarc, finishOpenFiles, type Repair, type Finished } from './resume.js';
export {
  recordFetch,
  archiveFetch,
  ARCHIVE_OPEN_OPTIONS,
  warcProtocols,
  mediaTypeOf,
  transcriptText,
  recordExchange,
  archiveHttpFetch,
  exchangeProtocol,
  type FetchRecords,
  type ExchangeRecords,
} from './fetch.js';
export { htmlPageLinks, isHtml } from './html-links.js';
export type { BlockSource } from './spool.js';
export {
  archiveCrawl,
  outputOf,
  robotsPlaceOf,
  ARCHIVE_MAX_LINKS,
  ARCHIVE_MAX_PAGE,
  ARCHIVE_GATHER_MS,
  ARCHIVE_BACKLOG,
  ROBOTS_TOKEN,
  type ArchiveOptions,
  type ArchiveSummary,
} from './crawl.js';
export {
  ReplayArchive,
  replayKey,
  WARC_RECORDED_STATUS,
  WARC_STALE_INDEX,
  type Capture,
  type Replayed,
  type ReplayOptions,
  type IndexedFile,
} from './replay.js';
