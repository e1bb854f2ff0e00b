// Shared test helpers.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';

/** The repository root (tests run from .build/test/...). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** ../shared beside the repository (spec texts, corpus, fixtures). */
export const SHARED = join(ROOT, '..', 'shared');

export function fixture(name: string): string {
  return readFileSync(join(ROOT, 'test', 'fixtures', name), 'utf8');
}

export function shared(path: string): string {
  const p = join(SHARED, path);
  if (!existsSync(p)) throw new Error(`${p} is missing: the tests need ../shared beside the repository`);
  return readFileSync(p, 'utf8');
}

import { parse as coreParse, tryParse as coreTryParse, type ParseOptions } from '../src/core/parse.js';
import { Url } from '../src/core/url.js';
import { LocatorError } from '../src/core/errors.js';

/** parse() followed by the record's invariant check, as every test should parse. */
export function parse(input: string, options?: ParseOptions): Url {
  const u = coreParse(input, options);
  u.assertInvariants();
  return u;
}

/** tryParse() with the invariant check on success; anything thrown but a LocatorError fails. */
export function tryParse(input: string, options?: ParseOptions): Url | LocatorError {
  const u = coreTryParse(input, options);
  if (u instanceof Url) u.assertInvariants();
  else if (!(u instanceof LocatorError)) throw new Error('tryParse returned neither Url nor LocatorError');
  return u;
}

/** One-line summary: scheme | user | password | host | port | path | fragment (curl lib1560 style). */
export function summary(u: Url): string {
  const f = (v: string | number | null) => (v === null ? '-' : String(v));
  return [u.scheme, f(u.user), f(u.password), f(u.host), f(u.explicitPort ? u.port : null), f(u.path), f(u.fragment)].join(' | ');
}

/** The violation codes with offsets, "code@offset", in order. */
export function codes(u: Url): string {
  return u.violations.map((d) => `${d.code}@${d.offset}`).join(' ');
}

/** The state directory of the real test servers (started by scripts/test.mjs). */
export function serversDir(): string {
  const ts = process.env.LOCATOR_TEST_SERVERS;
  if (!ts) throw new Error('LOCATOR_TEST_SERVERS is not set: run the client tests through `npm test` (scripts/test.mjs starts the servers)');
  return ts;
}

/** Reads a whole web stream (for tests with small objects). */
export async function readAll(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(Buffer.from(value));
  }
  return Buffer.concat(parts);
}
