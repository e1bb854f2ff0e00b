// The table of subcommands, in the order --help lists them. Each lives in its own module.
import type { Command } from './command.js';
import { parseCommand } from './parse.js';
import { explainCommand } from './explain.js';
import { resolveCommand, relativizeCommand } from './resolve.js';
import { normalizeCommand, equalCommand } from './normalize.js';
import { extractCommand } from './extract.js';
import { lintCommand } from './lint.js';
import { fetchCommand } from './fetch.js';
import { sendCommand } from './send.js';
import { serveCommand } from './serve.js';
import { connectCommand } from './connect.js';
import { checkCommand } from './check.js';

export const COMMANDS: Command[] = [
  parseCommand,
  explainCommand,
  resolveCommand,
  relativizeCommand,
  normalizeCommand,
  equalCommand,
  extractCommand,
  lintCommand,
  fetchCommand,
  sendCommand,
  serveCommand,
  connectCommand,
  checkCommand,
];
