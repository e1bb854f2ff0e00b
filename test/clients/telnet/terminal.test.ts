// `locator connect` on a real terminal: the command runs in a tmux pane (a pseudo-terminal, 80x24),
// against the real telnetd that npm test starts (test/servers/telnet.sh) and against fakes. The
// pane's shell records `stty -g` before and after the command: the terminal modes afterwards
// must equal those before, whatever ended the session (the end, a reset, a signal).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, serversDir } from '../../helpers.js';
import { fakeTelnet, until } from './fakes.js';

serversDir();
const BIN = join(ROOT, 'dist', 'cli', 'main.js');

/** One tmux server of its own (its own socket), one pane running `locator connect ARGS`. */
class Pane {
  readonly dir = mkdtempSync(join(tmpdir(), 'locator-tmux-'));
  readonly sock = join(this.dir, 'tmux.sock');

  constructor(args: string[]) {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const d = q(this.dir);
    const script =
      `stty -g > ${d}/before; TERM=xterm ${q(process.execPath)} ${q(BIN)} connect ${args.map(q).join(' ')}; ` +
      `echo $? > ${d}/rc.part; stty -g > ${d}/after; mv ${d}/rc.part ${d}/rc; sleep 600`;
    this.tmux('new-session', '-d', '-x', '80', '-y', '24', 'sh', '-c', script);
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.sock, ...args], { encoding: 'utf8', timeout: 5000 });
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-J');
  }

  async waitFor(re: RegExp, ms = 15000): Promise<void> {
    let last = '';
    await until(() => re.test((last = this.screen())), ms, `${re} on the screen`).catch((e: Error) => {
      throw new Error(`${e.message}\n--- screen ---\n${last}`);
    });
  }

  keys(...keys: string[]): void {
    this.tmux('send-keys', ...keys);
  }

  /** The process id of the locator command (the child of the pane's shell). */
  commandPid(): number {
    const sh = this.tmux('display-message', '-p', '#{pane_pid}').trim();
    const kids = readFileSync(`/proc/${sh}/task/${sh}/children`, 'utf8').trim().split(/\s+/);
    return Number(kids[0]);
  }

  /** The pane's terminal modes now (stty -g on its tty). */
  modesNow(): string {
    const tty = this.tmux('display-message', '-p', '#{pane_tty}').trim();
    const fd = openSync(tty, 'r');
    try {
      return execFileSync('stty', ['-g'], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8' }).trim();
    } finally {
      closeSync(fd);
    }
  }

  async exitCode(ms = 15000): Promise<number> {
    await until(() => existsSync(join(this.dir, 'rc')), ms, 'the command to exit').catch((e: Error) => {
      throw new Error(`${e.message}\n--- screen ---\n${this.screen()}`);
    });
    return Number(readFileSync(join(this.dir, 'rc'), 'utf8').trim());
  }

  modesBeforeAfter(): [string, string] {
    return [readFileSync(join(this.dir, 'before'), 'utf8'), readFileSync(join(this.dir, 'after'), 'utf8')];
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

test('locator connect telnet://tester@127.0.0.1:2323/ in a terminal: log in, run a command, resize, escape prompt, exit; modes restored', async () => {
  const pane = new Pane(['telnet://tester:secret@127.0.0.1:2323/']);
  try {
    await pane.waitFor(/login: $/m);
    const screen = pane.screen();
    assert.match(screen, /User name in the URL: "tester"/);
    assert.match(screen, /Password in the URL: \*\*\*\* \(advisory/);
    assert.doesNotMatch(screen, /"secret"|:secret@/);
    assert.match(screen, /Escape character is '\^]'/);
    const before = readFileSync(join(pane.dir, 'before'), 'utf8').trim();
    assert.notEqual(pane.modesNow(), before, 'raw mode while the session runs');
    pane.keys('tester', 'Enter');
    await pane.waitFor(/Password: ?$/m);
    pane.keys('secret', 'Enter');
    await pane.waitFor(/^\$ $/m);
    pane.keys('stty size; echo MARK$((40+2))', 'Enter');
    await pane.waitFor(/^24 80\nMARK42$/m);
    pane.tmux('resize-window', '-x', '100', '-y', '30');
    pane.keys('clear; stty size', 'Enter');
    await pane.waitFor(/^30 100$/m);
    pane.keys('C-]');
    await pane.waitFor(/locator> $/m);
    pane.keys('status', 'Enter');
    await pane.waitFor(/the server performs: ECHO, SUPPRESS-GO-AHEAD/);
    assert.match(pane.screen(), /NAWS \(100x30\)/);
    pane.keys('echo back', 'Enter');
    await pane.waitFor(/^back$/m);
    pane.keys('exit', 'Enter');
    assert.equal(await pane.exitCode(), 0);
    assert.match(pane.screen(), /Connection closed by foreign host\./);
    const [b, a] = pane.modesBeforeAfter();
    assert.equal(a, b, 'the terminal modes afterwards equal those before');
  } finally {
    pane.kill();
  }
});

test("locator connect: the escape prompt's quit ends the session (exit 0, modes restored)", async () => {
  const pane = new Pane(['telnet://127.0.0.1:2323/']);
  try {
    await pane.waitFor(/login: $/m);
    pane.keys('C-]');
    await pane.waitFor(/locator> $/m);
    pane.keys('quit', 'Enter');
    assert.equal(await pane.exitCode(), 0);
    assert.match(pane.screen(), /Connection closed\.$/m);
    const [b, a] = pane.modesBeforeAfter();
    assert.equal(a, b);
  } finally {
    pane.kill();
  }
});

test('locator connect: a connection reset restores the terminal and exits 3', async () => {
  const fake = await fakeTelnet((sock) => {
    sock.write('hello from the fake\r\n');
    setTimeout(() => sock.resetAndDestroy(), 500);
  });
  const pane = new Pane([`telnet://127.0.0.1:${fake.port}/`]);
  try {
    assert.equal(await pane.exitCode(), 3);
    const screen = pane.screen();
    assert.match(screen, /hello from the fake/);
    assert.match(screen, /locator connect: the connection failed: ECONNRESET/);
    const [b, a] = pane.modesBeforeAfter();
    assert.equal(a, b);
  } finally {
    pane.kill();
    await fake.close();
  }
});

for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  test(`locator connect: ${signal} during a stalled session restores the terminal and exits ${code}`, async () => {
    const fake = await fakeTelnet(() => {}); // accepts, says nothing
    const pane = new Pane([`telnet://127.0.0.1:${fake.port}/`]);
    try {
      await pane.waitFor(/Escape character is/);
      await until(() => fake.connections === 1, 5000, 'the connection');
      process.kill(pane.commandPid(), signal);
      assert.equal(await pane.exitCode(), code);
      const [b, a] = pane.modesBeforeAfter();
      assert.equal(a, b);
      await fake.allClosed();
    } finally {
      pane.kill();
      await fake.close();
    }
  });
}
