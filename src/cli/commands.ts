// The table of subcommands. Each lives in its own module.
import type { Command } from './command.js';
import { parseCommand } from './parse.js';
import { explainCommand } from './explain.js';

export const COMMANDS: Command[] = [parseCommand, explainCommand];
import { extractCommand } from './extract.js';
COMMANDS.push(extractCommand);
