// The table of subcommands. Each lives in its own module.
import type { Command } from './command.js';
import { parseCommand } from './parse.js';
import { explainCommand } from './explain.js';
import { fetchCommand } from './fetch.js';
import { lintCommand } from './lint.js';

export const COMMANDS: Command[] = [parseCommand, explainCommand, lintCommand, fetchCommand];
