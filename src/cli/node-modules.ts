// Node's modules that only some runs of a command use (node:stream for the escaping and redacting
// streams, node:worker_threads for --jobs, node:os for --jobs auto), loaded when first needed:
// imported with the CLI's modules they cost a batch on empty input 2-3 ms of its start-up, a
// twentieth of Node's own (bench/RESULTS.md, the CLI part).
import { createRequire } from 'node:module';

/** Node's module `name` (node:...), loaded on the first call. */
export function nodeModule<T>(name: string): T {
  return createRequire(import.meta.url)(name) as T;
}
