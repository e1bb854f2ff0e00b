// The types of check() (docs/check.md): its inputs, options and result rows, and the occurrences it tracks.
import type { Url } from '../core/url.js';
import type { ExtractOptions, TextSource } from '../extract/index.js';
import type { CheckStatus, ProbeOptions, ProbeResult, TranscriptLine } from '../clients/index.js';
import type { ChildLister, Slot } from './recurse.js';
import type { ScopeKind } from '../crawl/scope.js';
import type { ServerPoliteness } from '../crawl/politeness.js';
import type { RobotsReport } from '../crawl/robots-cache.js';

/** A document to read URLs from: a name for the report and its text (a string or chunks of text or UTF-8 bytes). */
export interface CheckDocument {
  file: string;
  text: string | TextSource;
}

/**
 * A link a reader of markup found (./markup/): the URL to check, where its text starts, a note
 * for the row, and the verdict when the reader decided it without the network (a missing fragment).
 */
export interface FoundLink {
  url: string;
  line: number;
  column: number;
  note?: string;
  /** A run-on (extract()'s Match.written): the URL the extractor stopped at; `url` is the whole run. */
  cutAt?: string;
  verdict?: { status: CheckStatus; reason: string; code?: string };
  /**
   * What the reader has still to find out (the anchors of the document a fragment names): run by
   * check() when it takes the link, among its probes, each network read in a slot of its limits;
   * the `verdict` and `note` it gives replace those above.
   */
  decide?: (slot: Slot) => Promise<Pick<FoundLink, 'verdict' | 'note'>>;
}

/** A document whose links were found by a reader of markup (./markup/): checked as found. */
export interface CheckLinks {
  file: string;
  links: Iterable<FoundLink> | AsyncIterable<FoundLink>;
}

/** What check() takes: URL strings (checked as given), documents (read with extract()) and links found in markup. */
export type CheckInput = string | CheckDocument | CheckLinks;

/** Where a URL was found: the document and the 1-based line and column of its first character. */
export interface Where {
  file: string;
  line: number;
  column: number;
}

/** The probe check() calls for each distinct URL: `probe` of locator/clients by default. */
export type ProbeFunction = (url: Url, options: ProbeOptions) => Promise<ProbeResult>;

export interface CheckOptions extends ProbeOptions {
  /** Probes at once, in total (default 8). */
  concurrency?: number;
  /** Probes at once to one server, host and port (default 2). */
  perHost?: number;
  /** Milliseconds between the starts of two probes to the same server (default 0). */
  delay?: number;
  /** Tries again after a temporary failure (a 4xx reply of FTP/NNTP/SMTP, a timeout): this many times (default 1). */
  retries?: number;
  /** Milliseconds before the first retry, doubled for each further one (default 1000). */
  retryDelay?: number;
  /**
   * Crawl: follow the links of Gopher menus, FTP and Prospero directory listings, and HTML and
   * Markdown pages over http, https and file, breadth first, within `scope` (default false).
   */
  recursive?: boolean;
  /** With `recursive`: how many levels below the URLs given (default 3). */
  maxDepth?: number;
  /** With `recursive`: how many distinct URLs to check at most, those given included (default 1000). */
  maxUrls?: number;
  /** `input` (default): results in input order (see the head of ./check.ts); `completion`: as they are known. */
  order?: 'input' | 'completion';
  /** How many URLs may be under way or waiting to be reported at once (default 1000). */
  window?: number;
  /**
   * Milliseconds a probe (or the reading of a menu or listing) may take in all, however steadily
   * the server trickles its answer (`timeout` bounds each silence only): default 4 times `timeout`
   * (30000 when not given), Infinity when `timeout` is. Past it the probe is `unreachable`.
   */
  deadline?: number;
  /** The options of extract() for documents. */
  extract?: ExtractOptions;
  /** True for a URL not to check nor report (--exclude, --include, .locatorignore: ./rules.ts). */
  skip?: (url: string) => boolean;
  /** The probe (default: `probe` of src/clients/probe/): tests pass a fake. */
  probe?: ProbeFunction;
  /** What --recursive reads the links of a menu or listing with (default: ./recurse.ts). */
  children?: ChildLister;
  /**
   * With `recursive`: which links are followed (their links read), as opposed to checked only:
   * `server` (default: the host and port of a URL given), `host`, `domain` (the host and the names
   * below it), `prefix` (under the folder of a URL given). src/crawl/scope.ts.
   */
  scope?: ScopeKind;
  /**
   * With `recursive`: a folder that keeps the crawl's frontier and verdicts (src/crawl/state.ts);
   * a run given the folder of a killed one resumes it, probing nothing it had finished.
   */
  state?: string;
  /**
   * With `recursive`: also the links of verbatim text of the pages crawled (Markdown code blocks
   * and spans, HTML `<pre>` and `<code>`; default false, as lychee's --include-verbatim).
   */
  includeVerbatim?: boolean;
  /**
   * Gopher documents: compare a short answer with the server's answer to a selector that cannot
   * exist, asked once per server, and report an equal one broken (./gopher-soft.ts; default true).
   */
  gopherSoftErrors?: boolean;
  /** Do not read robots.txt (RFC 9309): off by default, named in the report when on. */
  ignoreRobots?: boolean;
  /** Requests a second to one server at most (a token bucket of src/crawl/politeness.ts; default: no bound but `delay`). */
  rate?: number;
  /** The longest wait a server may ask for (Retry-After, Crawl-delay), in ms (default 600000): a longer one gives the URL up. */
  maxWait?: number;
  /** Called once at the end with what the politeness engine did per server and what each robots.txt said. */
  onPoliteness?: (report: PolitenessReport) => void;
}

/** What the politeness engine did in a run of check(), for the report. */
export interface PolitenessReport {
  servers: ServerPoliteness[];
  robots: RobotsReport[];
  /** True when robots.txt was not read (`ignoreRobots`). */
  robotsIgnored: boolean;
}

/** The report on one occurrence of a URL. */
export interface CheckResult {
  /** The URL as found (a wrapper and `URL:` removed); passwords are the caller's to hide (src/operations/redact.ts). */
  url: string;
  status: CheckStatus;
  /** Why: the reply code and text, the violation, or the error's message. */
  reason: string;
  /** The diagnostic or error code that decided it, when one did. */
  code?: string;
  /** The protocol's reply code, when there was one. */
  reply?: string;
  /** The URLs the redirects went to, in order. */
  redirects: string[];
  /** Where it was found; null for a URL given as a string (or found by --recursive: see `parent`). */
  where: Where | null;
  /** The menu or listing it was found in (--recursive), else null. */
  parent: string | null;
  /** 0 for the URLs given and found in documents; one more per menu or listing followed. */
  depth: number;
  /** How many probes were sent for its normal form (0 for invalid; retries count). */
  attempts: number;
  /** True when an earlier occurrence of the same normal form was probed, and this one shares its answer. */
  duplicate: boolean;
  /** Notes: links of a menu left out by maxUrls, a listing that could not be read. */
  notes: string[];
  /** Milliseconds the probes took (the last try). */
  ms: number;
  /** What was sent and received, when `transcript` was asked for. */
  transcript: TranscriptLine[];
}

/** What the extractor said of a URL found in a document (Match.written). */
export interface Found {
  /** A run-on: the URL the extractor stopped at; `url` is the whole run as written. */
  cutAt?: string;
  /** A note for the row (white space in a wrapper ignored). */
  note?: string;
  /** Decided by the reader of the markup (FoundLink.verdict): not probed. */
  verdict?: FoundLink['verdict'];
  /** Left to decide when the link is taken (FoundLink.decide). */
  decide?: FoundLink['decide'];
}

/** One URL found: where, how deep, and its report once known. */
export interface Occurrence {
  url: string;
  where: Where | null;
  found: Found;
  parent: string | null;
  depth: number;
  result: CheckResult | null;
  settled: Promise<void>;
  /** --recursive: a URL given whose links the crawl reads; reported by the crawl, with its notes. */
  deferred?: boolean;
}

/** The outcome of a probe, shared by the occurrences of one normal form. */
export interface Outcome {
  r: ProbeResult;
  attempts: number;
}
