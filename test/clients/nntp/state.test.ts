// The INN the NNTP tests read is the run's own (test/servers/nntp.sh): its inn.conf, active file,
// history and spool are under the run's state folder, made fresh, so the articles the tests take
// by Message-ID and by number are the ones that script posted, whatever an earlier run or the
// system's INN left in /var/spool/news. A raw NNTP session asks the running server itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { serversDir } from '../../helpers.js';

const TS = serversDir();
const N = join(TS, 'nntp');

/** One NNTP session on 127.0.0.1:1119: sends each command after the previous reply's first line; the replies' first lines. */
async function session(commands: string[]): Promise<string[]> {
  const s = connect(1119, '127.0.0.1');
  s.setEncoding('latin1');
  s.setTimeout(10_000, () => s.destroy(new Error('INN did not answer within 10 s')));
  let buf = '';
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  s.on('data', (d: string) => {
    buf += d;
    for (let i = buf.indexOf('\r\n'); i >= 0; i = buf.indexOf('\r\n')) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 2);
      waiters.shift()?.();
    }
  });
  const closed = new Promise<void>((resolve, reject) => {
    s.on('close', () => resolve());
    s.on('error', reject);
  });
  const next = () =>
    lines.length > 0
      ? Promise.resolve(lines.shift()!)
      : new Promise<string>((r) => waiters.push(() => r(lines.shift()!)));
  const firsts: string[] = [await next()];
  for (const c of commands) {
    s.write(`${c}\r\n`);
    const first = await next();
    firsts.push(first);
    // A multi-line answer (220, 221, 222, 215): skip to its end.
    if (/^22[012] |^215 /.test(first)) for (let l = await next(); l !== '.'; l = await next());
  }
  s.end();
  await closed;
  return firsts;
}

/** The value of one key of an inn.conf. */
function confValue(conf: string, key: string): string | undefined {
  return new RegExp(`^${key}:\\s*(\\S+)`, 'm').exec(conf)?.[1];
}

test("INN's configuration, active file, history and spool are the run's own, under the state folder", () => {
  const confPath = join(N, 'etc', 'inn.conf');
  assert.ok(existsSync(confPath), `${confPath}: nntp.sh gives INN its own inn.conf`);
  const conf = readFileSync(confPath, 'utf8');
  for (const key of [
    'pathetc',
    'pathdb',
    'pathspool',
    'patharticles',
    'pathoverview',
    'pathincoming',
    'pathtmp',
    'pathrun',
    'pathlog',
  ])
    assert.ok(confValue(conf, key)?.startsWith(`${N}/`), `${key} is under ${N}: ${confValue(conf, key)}`);
  const db = confValue(conf, 'pathdb')!;
  assert.ok(existsSync(join(db, 'history')) && existsSync(join(db, 'active')));
  assert.match(readFileSync(join(db, 'active'), 'latin1'), /^local\.test 0000000004 0000000001 y$/m);
  // The running innd is the one started with that configuration: its control socket is there.
  assert.ok(existsSync(join(confValue(conf, 'pathrun')!, 'control')), 'the running innd uses this pathrun');
});

test('local.test holds exactly the four articles nntp.sh posted, numbered 1 to 4 in posting order', async () => {
  const answers = await session([
    'MODE READER',
    'GROUP local.test',
    'STAT 1',
    'STAT 2',
    'STAT 3',
    'STAT 4',
    'STAT 5',
    'STAT <first.1@example.test>',
    'QUIT',
  ]);
  assert.deepEqual(answers.slice(2), [
    '211 4 1 4 local.test',
    '223 1 <first.1@example.test> status',
    '223 2 <second.2@example.test> status',
    '223 3 <umlaut.3@example.test> status',
    '223 4 <big.6@example.test> status',
    '423 No such article number 5',
    '223 0 <first.1@example.test> status',
    '205 Bye!',
  ]);
});
