// One worker of batch mode (batch.ts): loads the scheme modules the command was given, then runs
// the command's row function on each block of lines the main thread posts, and posts back the
// block's output text. The row functions are the ones the one-process loop runs.
import { parentPort, workerData } from 'node:worker_threads';
import { loadSchemes } from './schemes.js';
import { escaper } from './safe-text.js';
import type { LocatorError } from '../core/errors.js';
import { runBlock, spareBuffer, type BatchSetup, type BytesRow, type Row } from './batch.js';
import { parseJsonRow, parseRow, type ParseCommandOptions } from './parse.js';
import { normalizeRow, type NormalizeCommandOptions } from './normalize.js';

const setup = workerData as BatchSetup;
const ROWS: Record<BatchSetup['kind'], (input: string) => Row> = {
  parse: (input) => parseRow(input, setup.opts as unknown as ParseCommandOptions),
  normalize: (input) => normalizeRow(input, setup.opts as unknown as NormalizeCommandOptions),
};
const row = ROWS[setup.kind];
// The rows that are written as bytes straight away (parse --json), as the one-process loop writes them.
const parseOpts = setup.opts as unknown as ParseCommandOptions;
const bytes: BytesRow | undefined =
  setup.kind === 'parse' && parseOpts.json ? (input, out) => parseJsonRow(input, parseOpts, out) : undefined;

// The main thread loaded these modules already (a failure there is a usage error before any
// worker starts); a failure here is unexpected and stops the command. Loaded at the first block.
let loaded: Promise<LocatorError | null> | undefined;

const NOTHING = new Uint8Array(0);

parentPort!.on('message', async (m: { seq: number; block: Uint8Array } | { spare: ArrayBuffer }) => {
  if ('spare' in m) {
    spareBuffer(m.spare);
    return;
  }
  const error = await (loaded ??= loadSchemes(setup.modules, process.cwd()));
  if (error !== null) {
    parentPort!.postMessage({ seq: m.seq, out: NOTHING, err: '', status: 1, fatal: error.message });
    return;
  }
  try {
    // What main.ts's escaping stream would do to each line (batch.ts writes past it). Chosen here,
    // not when the module loads: a module's top level only declares (test/bundle.test.ts).
    const escape = setup.escape === undefined ? null : escaper(setup.escape === 'json');
    const r = runBlock(m.block, row, escape, setup.errToOut === true, bytes);
    // Encoded here, not in the main thread, and moved: the main thread writes the bytes as they
    // are. The input block, read, goes back with them for a later block.
    const input = m.block.buffer as ArrayBuffer;
    parentPort!.postMessage({ seq: m.seq, ...r, input }, [r.out.buffer as ArrayBuffer, input]);
  } catch (e) {
    parentPort!.postMessage({ seq: m.seq, out: NOTHING, err: '', status: 1, fatal: String(e) });
  }
});
