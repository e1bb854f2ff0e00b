// `--scheme MODULE` and LOCATOR_SCHEMES: schemes that are not built in, loaded from ES modules and
// registered before a command runs (RFC 1738 4: a new scheme brings its syntax and its access
// algorithm). A module's default export is a scheme entry (src/schemes/spec.ts, README "Adding a
// scheme"); the CLI registers it, so the module needs no side effect of its own.

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LocatorError, defineCode } from '../core/errors.js';
import { registerScheme, type SchemeSpec } from '../schemes/registry.js';

export const SCHEME_MODULE = defineCode(
  'scheme-module',
  'error',
  'RFC 1738 4',
  'a scheme module must load and have a scheme entry as its default export',
);

const STATUSES: ReadonlySet<unknown> = new Set(['rfc1738', 'draft', 'reserved', 'later']);

/** Why `v` is not a scheme entry, or null when it has the shape of one (SchemeSpec). */
function notAnEntry(v: unknown): string | null {
  if (v === null || typeof v !== 'object')
    return `its default export is ${v === null ? 'null' : typeof v}, not a scheme entry object`;
  const e = v as Record<string, unknown>;
  if (typeof e.name !== 'string') return 'its default export has no string "name"';
  if (
    e.defaultPort !== null &&
    !(Number.isInteger(e.defaultPort) && (e.defaultPort as number) >= 0 && (e.defaultPort as number) <= 65535)
  ) {
    return `the entry "${e.name}" has no "defaultPort" (a port number, or null)`;
  }
  if (e.syntax !== 'internet' && e.syntax !== 'opaque')
    return `the entry "${e.name}" has no "syntax" ("internet" or "opaque")`;
  if (!STATUSES.has(e.status))
    return `the entry "${e.name}" has no "status" ("rfc1738", "draft", "reserved" or "later")`;
  for (const hook of ['validate', 'fields', 'build', 'explain', 'wire', 'readsThisMachine', 'client', 'render']) {
    if (e[hook] !== undefined && typeof e[hook] !== 'function')
      return `the "${hook}" of the entry "${e.name}" is not a function`;
  }
  return null;
}

/**
 * Imports each module (a file path, relative to `cwd`, or a file: URL) and registers its default
 * export with registerScheme (RFC 1738 4), in order; a module named twice is loaded once. Returns
 * null when every one was registered, else the LocatorError of the first that was not: code
 * `scheme-module` (it did not load, or its default export is no scheme entry), or the registry's
 * own (`scheme-clash` for a name registered already, `invalid-scheme-name`).
 */
export async function loadSchemes(modules: readonly string[], cwd: string): Promise<LocatorError | null> {
  const seen = new Set<string>();
  for (const m of modules) {
    const href = m.startsWith('file:') ? m : pathToFileURL(resolve(cwd, m)).href;
    if (seen.has(href)) continue;
    seen.add(href);
    let mod: { default?: unknown };
    try {
      mod = (await import(href)) as { default?: unknown };
    } catch (e) {
      return new LocatorError(
        SCHEME_MODULE,
        -1,
        `cannot load the scheme module ${m}: ${e instanceof Error ? e.message : String(e)}`,
        { cause: e },
      );
    }
    const why = notAnEntry(mod.default);
    if (why !== null) return new LocatorError(SCHEME_MODULE, -1, `the scheme module ${m} is no scheme entry: ${why}`);
    try {
      registerScheme(mod.default as SchemeSpec);
    } catch (e) {
      if (e instanceof LocatorError) return e;
      return new LocatorError(
        SCHEME_MODULE,
        -1,
        `the scheme module ${m}: ${e instanceof Error ? e.message : String(e)}`,
        { cause: e },
      );
    }
  }
  return null;
}
