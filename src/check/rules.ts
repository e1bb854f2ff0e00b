// Which URLs check() leaves out: --exclude and --include patterns and the lines of an ignore file
// (.locatorignore), with lychee's precedence: a URL that matches an include pattern is checked;
// else one that matches an exclude pattern (or an ignore line) is left out; else, when include
// patterns were given and no exclude pattern, it is left out too (the includes are then a list
// of what to check); else it is checked.

export interface Rules {
  include?: readonly string[];
  exclude?: readonly string[];
}

/** The patterns of an ignore file: one regular expression a line; blank lines and lines starting with "#" skipped. */
export function ignoreLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

function compile(pattern: string, what: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch (e) {
    throw new SyntaxError(`${what} ${JSON.stringify(pattern)} is no regular expression: ${(e as Error).message}`);
  }
}

/**
 * The `skip` of check() for `rules` (regular expressions of ECMAScript, unanchored, matched
 * against the URL as reported): null when there are none. A pattern that does not compile is a
 * SyntaxError naming it.
 */
export function skipper(rules: Rules): ((url: string) => boolean) | null {
  const include = (rules.include ?? []).map((p) => compile(p, 'the include pattern'));
  const exclude = (rules.exclude ?? []).map((p) => compile(p, 'the exclude pattern'));
  if (include.length === 0 && exclude.length === 0) return null;
  return (url: string) => {
    if (include.some((r) => r.test(url))) return false;
    if (exclude.length === 0) return true;
    return exclude.some((r) => r.test(url));
  };
}
