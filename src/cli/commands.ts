// The table of subcommands. Each lives in its own module.
import type { Command } from './command.js';
import { parseCommand } from './parse.js';
import { explainCommand } from './explain.js';
import { resolveCommand, relativizeCommand } from './resolve.js';
import { normalizeCommand, equalCommand } from './normalize.js';

export const COMMANDS: Command[] = [parseCommand, explainCommand];
COMMANDS.push(resolveCommand, relativizeCommand);
COMMANDS.push(normalizeCommand, equalCommand);
