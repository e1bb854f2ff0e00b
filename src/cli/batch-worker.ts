// One worker of batch mode (batch.ts): loads the scheme modules the command was given, then runs
// the command's row function on each block of lines the main thread posts, and posts back the
// block's output text. The row functions are the ones the one-process loop runs.
import { parentPort, workerData } from 'node:worker_threads';
import { loadSchemes } from './schemes.js';
import type { LocatorError } from '../core/errors.js';
import { runBlock, type BatchSetup, type Row } from './batch.js';
import { parseRow, type ParseCommandOptions } from './parse.js';
import { normalizeRow, type NormalizeCommandOptions } from './normalize.js';

const setup = workerData as BatchSetup;
const ROWS: Record<BatchSetup['kind'], (input: string) => Row> = {
  parse: (input) => parseRow(input, setup.opts as unknown as ParseCommandOptions),
  normalize: (input) => normalizeRow(input, setup.opts as unknown as NormalizeCommandOptions),
};
const row = ROWS[setup.kind];

// The main thread loaded these modules already (a failure there is a usage error before any
// worker starts); a failure here is unexpected and stops the command. Loaded at the first block.
let loaded: Promise<LocatorError | null> | undefined;

parentPort!.on('message', async (m: { seq: number; block: string }) => {
  const error = await (loaded ??= loadSchemes(setup.modules, process.cwd()));
  if (error !== null) {
    parentPort!.postMessage({ seq: m.seq, out: '', err: '', status: 1, fatal: error.message });
    return;
  }
  try {
    parentPort!.postMessage({ seq: m.seq, ...runBlock(m.block, row) });
  } catch (e) {
    parentPort!.postMessage({ seq: m.seq, out: '', err: '', status: 1, fatal: String(e) });
  }
});
