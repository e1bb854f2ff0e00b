// robots.txt fetched once per server and kept for the run (RFC 9309 2.4: a crawler SHOULD NOT use
// a cached copy for more than 24 hours; a crawl re-reads it when it resumes), asked before every
// request of a crawl. Where the file is, and which part of a URL its rules are matched against,
// is the scheme's to say (the face's `robots`: /robots.txt of a web server, the `robots.txt`
// selector of a Gopher server); a scheme with no such convention is not restricted.
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, robotsVerdict, type RobotsPolicy, type RobotsRule } from './robots.js';
import type { Politeness } from './politeness.js';

/** Where a URL's robots.txt is and what its rules are matched against. */
export interface RobotsPlace {
  /** The server key (host and port): one robots.txt per server. */
  server: string;
  /** The URL of the robots.txt. */
  url: string;
  /** The path (and query) of the URL asked about, from its `/`; a Gopher selector made to start with `/`. */
  path: string;
}

/**
 * What fetching a robots.txt gave (RFC 9309 2.3.1): `found` (2xx, its text), `unavailable` (4xx:
 * no restriction), `unreachable` (5xx, a network error: everything disallowed).
 */
export type RobotsFetchResult =
  { kind: 'found'; text: string } | { kind: 'unavailable'; why: string } | { kind: 'unreachable'; why: string };

export type RobotsFetch = (robotsUrl: string, server: string) => Promise<RobotsFetchResult>;

/** What the report says of one server's robots.txt. */
export interface RobotsReport {
  server: string;
  url: string;
  /** found, unavailable (none: everything allowed), unreachable (everything disallowed). */
  status: RobotsFetchResult['kind'];
  why: string | null;
  /** Rules applied to locator (its own group, or `*`). */
  rules: number;
  /** True when a group names locator's product token. */
  named: boolean;
  crawlDelay: number | null;
  sitemaps: readonly string[];
  /** URLs not fetched because the rules disallow them (those of `resumed` included). */
  disallowed: number;
  /** Of `disallowed`, those an earlier run of a resumed crawl did not fetch (its state kept their verdicts). */
  resumed?: number;
  notes: readonly string[];
}

export interface RobotsAnswer {
  allowed: boolean;
  /** Why, for people, when not allowed. */
  reason: string;
  rule: RobotsRule | null;
}

/** The robots.txt of each server of a run, fetched on first need (concurrent askers share one fetch). */
export class RobotsCache {
  readonly #token: string;
  readonly #fetch: RobotsFetch;
  readonly #politeness: Politeness | null;
  readonly #servers = new Map<string, Promise<{ policy: RobotsPolicy; report: RobotsReport }>>();
  readonly #reports: RobotsReport[] = [];

  /** `token`: the product token matched against user-agent lines (RFC 9309 2.2.1), e.g. `locator`. */
  constructor(token: string, fetch: RobotsFetch, politeness: Politeness | null = null) {
    parseRobots('', token); // checks the token
    this.#token = token;
    this.#fetch = fetch;
    this.#politeness = politeness;
  }

  /** Whether the rules of `place.server` let the crawler fetch `place.path` (RFC 9309 2.2.2). */
  async ask(place: RobotsPlace): Promise<RobotsAnswer> {
    const { policy, report } = await this.#of(place);
    const v = robotsVerdict(policy, place.path);
    if (v.allowed) return { allowed: true, reason: '', rule: v.rule };
    report.disallowed++;
    const reason =
      report.status === 'unreachable'
        ? `not fetched: the server's robots.txt could not be read (${report.why}), and a crawler must then take everything as disallowed (RFC 9309 2.3.1.4)`
        : `not fetched: the server's robots.txt disallows it (Disallow: ${v.rule?.pattern}, RFC 9309 2.2.2)`;
    return { allowed: false, reason, rule: v.rule };
  }

  /**
   * Whether the rules let the crawler fetch `place.path`, as ask() says, for a request of the
   * crawler's own (the checker's baseline of a Gopher server), not a URL of the crawl: not counted.
   */
  async allows(place: RobotsPlace): Promise<boolean> {
    const { policy } = await this.#of(place);
    return robotsVerdict(policy, place.path).allowed;
  }

  /**
   * A URL an earlier run of a resumed crawl did not fetch because these rules disallowed it (its
   * verdict kept in the crawl's state): counted in the report as ask() counts one, the server's
   * robots.txt read again if this run has not read it yet (RFC 9309 2.4: a resumed crawl re-reads it).
   */
  async carry(place: RobotsPlace): Promise<void> {
    const { report } = await this.#of(place);
    report.disallowed++;
    report.resumed = (report.resumed ?? 0) + 1;
  }

  /** The `Sitemap:` lines of the server's robots.txt (RFC 9309 2.2.4), fetched if not yet. */
  async sitemaps(place: RobotsPlace): Promise<readonly string[]> {
    return (await this.#of(place)).policy.sitemaps;
  }

  /** The server's robots.txt, loaded on first need; concurrent askers share the one load. */
  #of(place: RobotsPlace): Promise<{ policy: RobotsPolicy; report: RobotsReport }> {
    let p = this.#servers.get(place.server);
    if (p === undefined) {
      p = this.#load(place);
      this.#servers.set(place.server, p);
    }
    return p;
  }

  /** What was found on each server asked, in the order first asked. */
  report(): RobotsReport[] {
    return this.#reports.map((r) => ({ ...r }));
  }

  async #load(place: RobotsPlace): Promise<{ policy: RobotsPolicy; report: RobotsReport }> {
    let got: RobotsFetchResult;
    try {
      got = await this.#fetch(place.url, place.server);
    } catch (e) {
      got = { kind: 'unreachable', why: e instanceof Error ? e.message : String(e) };
    }
    const policy =
      got.kind === 'found' ? parseRobots(got.text, this.#token) : got.kind === 'unavailable' ? ALLOW_ALL : DISALLOW_ALL;
    const report: RobotsReport = {
      server: place.server,
      url: place.url,
      status: got.kind,
      why: got.kind === 'found' ? null : got.why,
      rules: got.kind === 'found' ? policy.rules.length : 0,
      named: policy.named,
      crawlDelay: policy.crawlDelay,
      sitemaps: policy.sitemaps,
      disallowed: 0,
      notes: policy.notes,
    };
    if (policy.crawlDelay !== null) this.#politeness?.setCrawlDelay(place.server, policy.crawlDelay);
    this.#reports.push(report);
    return { policy, report };
  }
}
