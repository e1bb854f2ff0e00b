// The table of subcommands (src/cli/commands.ts): each name loads its own command module, on
// first use only (issue 16: a cold `locator fetch` no longer loads the other commands).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMAND_NAMES, loadCommand, loadCommands } from '../../src/cli/commands.js';

test('every command name loads the command of that name, in the order --help lists them', async () => {
  assert.deepEqual(COMMAND_NAMES, [
    'parse',
    'explain',
    'resolve',
    'relativize',
    'get',
    'set',
    'build',
    'normalize',
    'equal',
    'extract',
    'lint',
    'fetch',
    'send',
    'serve',
    'connect',
    'check',
    'archive',
  ]);
  for (const name of COMMAND_NAMES) assert.equal((await loadCommand(name))?.name, name);
  assert.deepEqual(
    (await loadCommands()).map((c) => c.name),
    COMMAND_NAMES,
  );
});

test('a name that is no command (nor a property of every object) loads nothing', async () => {
  for (const name of ['nope', '', 'constructor', '__proto__', 'toString', 'FETCH']) {
    assert.equal(await loadCommand(name), null, name);
  }
});
