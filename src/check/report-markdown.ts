// The Markdown summary of `locator check --format markdown` (GitHub-flavoured tables, for a CI
// job summary such as $GITHUB_STEP_SUMMARY): a table of the counts per file, then for each file a
// table of its links (only those not ok with --errors-only).
import type { CheckResult, CheckStatus } from './check.js';

const STATUSES: readonly CheckStatus[] = ['ok', 'redirected', 'broken', 'refused', 'invalid', 'unreachable'];

const control = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text for a table cell or a heading: one line, controls shown as \uHHHH, and every character
 * that Markdown or HTML (GitHub-flavoured: tables, strikethrough, math, mentions, issue
 * references, autolinks by their ":") reads as markup escaped with a backslash (CommonMark 2.4: any ASCII punctuation may
 * be), so that a server's reply or a document's text can make no link, image, HTML, emphasis or
 * entity in a job summary.
 */
export function cell(s: string): string {
  return s.replace(/[\\`*_[\]()!<>&~|$@#:]|[\u0000-\u001f\u007f]/g, (c) =>
    c < ' ' || c === '\u007f' ? control(c) : `\\${c}`,
  );
}

/**
 * A URL as a code span in a table cell (a run of backticks in it gets a longer fence): nothing in
 * a code span is markup; only "|", which ends a cell before code spans are read (GFM 4.10), is
 * escaped. Controls are shown as \uHHHH, and so is "\\" (as \u005c): no escape works in a code
 * span, and a "\\" before the escaped "|" could make the table end the cell there.
 */
export function code(s: string): string {
  const longest = Math.max(0, ...Array.from(s.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const inner = (s.startsWith('`') || s.endsWith('`') ? ` ${s} ` : s)
    .replace(/[\\\u0000-\u001f\u007f]/g, control)
    .replace(/\|/g, '\\|');
  return `${fence}${inner}${fence}`;
}

/** The results of a run gathered by file (arguments and --recursive links under their own names). */
export class MarkdownSummary {
  readonly #files = new Map<string, { counts: Record<CheckStatus, number>; rows: string[] }>();

  constructor(private readonly errorsOnly: boolean) {}

  add(r: CheckResult): void {
    const file = r.where?.file ?? (r.parent !== null ? 'links of menus and listings' : 'arguments');
    let f = this.#files.get(file);
    if (f === undefined) {
      f = { counts: Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<CheckStatus, number>, rows: [] };
      this.#files.set(file, f);
    }
    f.counts[r.status]++;
    if (this.errorsOnly && (r.status === 'ok' || r.status === 'redirected')) return;
    const at = r.where !== null ? `${r.where.line}:${r.where.column}` : r.parent !== null ? `in ${code(r.parent)}` : '';
    const reason = [r.reason, ...r.redirects.map((to) => `-> ${to}`), ...r.notes].join('; ');
    f.rows.push(`| ${at} | ${r.status} | ${code(r.url)} | ${cell(reason)} |`);
  }

  /** The summary: a heading, the counts of each file, then each file's table. */
  text(title = 'locator check'): string {
    const out = [`## ${cell(title)}`, ''];
    out.push(`| file | ${STATUSES.join(' | ')} |`, `| --- |${STATUSES.map(() => ' ---: |').join('')}`);
    for (const [file, f] of this.#files)
      out.push(`| ${cell(file)} | ${STATUSES.map((s) => f.counts[s]).join(' | ')} |`);
    if (this.#files.size === 0) out.push('', 'No URL found.');
    for (const [file, f] of this.#files) {
      if (f.rows.length === 0) continue;
      out.push('', `### ${cell(file)}`, '', '| at | status | URL | reason |', '| --- | --- | --- | --- |', ...f.rows);
    }
    return out.join('\n') + '\n';
  }
}
