// The GitHub Actions report of `locator check --format github`: one workflow command per link
// that is not ok ("Workflow commands for GitHub Actions": `::error file=F,line=L,col=C,title=T::MESSAGE`),
// which GitHub shows as an annotation on that line of the file in the run and the pull request.
import type { CheckResult } from './check.js';

/** A message of a workflow command: %, CR and LF escaped (GitHub's escapeData). */
function data(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value of a workflow command: also ":" and "," escaped (GitHub's escapeProperty). */
function property(s: string): string {
  return data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * The workflow command for a result: `::error` for broken, invalid, refused and unreachable,
 * `::notice` for redirected, none (null) for ok. The file, line and column where it was found
 * are properties; a URL given as an argument has none.
 */
export function githubAnnotation(r: CheckResult): string | null {
  if (r.status === 'ok') return null;
  const level = r.status === 'redirected' ? 'notice' : 'error';
  const props: string[] = [];
  if (r.where !== null) {
    props.push(`file=${property(r.where.file)}`, `line=${r.where.line}`, `col=${r.where.column}`);
  }
  props.push(`title=${property(`${r.status} link`)}`);
  let message = `${r.status} ${r.url} (${r.reason})`;
  for (const to of r.redirects) message += ` -> ${to}`;
  if (r.parent !== null && r.where === null) message += ` in ${r.parent}`;
  for (const n of r.notes) message += `; ${n}`;
  return `::${level} ${props.join(',')}::${data(message)}`;
}
