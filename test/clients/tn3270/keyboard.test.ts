// The 3278 keyboard at the end of a field (IBM 3174/3278 auto-skip; GA23-0059 "Keyboard"), with
// s3270 (Debian's scripted member of the x3270 family, installed by test/servers/install.sh) as
// the reference: both clients get the same screen from an in-process host (Hercules on
// 127.0.0.1:3270 runs no program that writes input fields), type exactly to the end of a field
// of 21, one more character, Enter, Reset, Enter; the host compares the records each sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { connectSession } from '../../../src/clients/tn3270/session.js';
import { encodeChar } from '../../../src/clients/tn3270/ebcdic.js';
import { encodeAddress } from '../../../src/clients/tn3270/screen.js';
import { parse } from '../../helpers.js';
import { outputReader } from '../session-helpers.js';

const ebcdic = (s: string) => [...s].map((c) => encodeChar(c)!);
const enc = (s: string) => new TextEncoder().encode(s);

/** RFC 1576 4: DO TERMINAL-TYPE, SEND; BINARY and END-OF-RECORD both ways. */
const NEGOTIATION = Buffer.from([
  255, 253, 24, 255, 250, 24, 1, 255, 240, 255, 253, 25, 255, 251, 25, 255, 253, 0, 255, 251, 0,
]);

/**
 * An Erase/Write (keyboard restored): a protected "NAME" at 320, an unprotected field of 21 at
 * 332-352 with the cursor, the attribute `next` at 353 with "LAB", an unprotected field at
 * 401-419, protected from 420.
 */
function screen(next: number): Buffer {
  return Buffer.from([
    ...[0xf5, 0xc2, 0x11, ...encodeAddress(320), 0x1d, 0x60, ...ebcdic('NAME')],
    ...[0x11, ...encodeAddress(331), 0x1d, 0x40, 0x13],
    ...[0x11, ...encodeAddress(353), 0x1d, next, ...ebcdic('LAB')],
    ...[0x11, ...encodeAddress(400), 0x1d, 0x40, 0x11, ...encodeAddress(420), 0x1d, 0x60],
    ...[0xff, 0xef],
  ]);
}

/**
 * A host that sends `screen(next)` once a client gave its terminal type, keeps the records each
 * client sent (hex), and answers each with a Write that restores the keyboard.
 */
async function host(next: number) {
  const records: string[][] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => {});
    const mine: string[] = [];
    records.push(mine);
    sock.write(NEGOTIATION);
    let got = Buffer.alloc(0);
    let sent = false;
    sock.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (!sent && got.includes('IBM-327')) {
        sent = true;
        sock.write(screen(next));
        got = got.subarray(got.lastIndexOf(Buffer.from([255, 240])) + 2);
      }
      // After the negotiation: 3270 records ending in IAC EOR (no 0xFF in these), option replies before them.
      for (
        let end = got.indexOf(Buffer.from([255, 239]));
        sent && end >= 0;
        end = got.indexOf(Buffer.from([255, 239]))
      ) {
        let rec = got.subarray(0, end);
        while (rec[0] === 255) rec = rec.subarray(3); // IAC WILL/DO x
        mine.push(rec.toString('hex'));
        got = got.subarray(end + 2);
        sock.write(Buffer.from([0xf1, 0x02, 0xff, 0xef])); // the program's answer: a Write that restores the keyboard
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    records,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** s3270 driven through its standard input: one action at a time, its `data:` lines and its ok/error back. */
function s3270() {
  const p = spawn('s3270', ['-model', '3279-2-E'], { stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  p.stdout.on('data', (d) => (out += d));
  return {
    async run(action: string): Promise<{ ok: boolean; data: string[] }> {
      out = '';
      p.stdin.write(action + '\n');
      const t0 = Date.now();
      while (!/^(ok|error)$/m.test(out) && Date.now() - t0 < 10000) await new Promise((r) => setTimeout(r, 20));
      assert.match(out, /^(ok|error)$/m, `s3270 ${action}: no answer`);
      const data = out
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6));
      return { ok: /^ok$/m.test(out), data };
    },
    async quit() {
      p.stdin.end('Quit()\n');
      await new Promise((r) => (p.exitCode !== null ? r(null) : p.on('exit', r)));
    },
  };
}

const until = async (what: () => boolean, label: string) => {
  const t0 = Date.now();
  while (!what() && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 10));
  assert.ok(what(), label);
};

test('s3270 is installed (test/servers/install.sh): the keyboard tests compare locator with it', () => {
  assert.equal(spawnSync('s3270', ['-v']).error, undefined, 's3270 is missing: run test/servers/install.sh');
});

for (const [next, kind] of [
  [0x60, 'protected'],
  [0x70, 'protected numeric (auto-skip)'],
] as const) {
  test(`3278 auto-skip, locator as s3270: a field of 21 typed full, one more character, Enter, Reset, Enter; the next field ${kind}`, async () => {
    const h = await host(next);
    const x = s3270();
    try {
      // s3270: one Key() per character (String() would paste, with x3270's paste margins).
      await x.run(`Connect(127.0.0.1:${h.port})`);
      await x.run('Wait(10,InputField)');
      for (const c of 'abcdefghijklmnopqrstu') assert.ok((await x.run(`Key(${c})`)).ok);
      const [row, col] = (await x.run('Query(Cursor)')).data[0].split(' ').map(Number);
      const theirs22 = await x.run('Key(v)');
      await x.run('Enter()');
      await x.run('Reset()');
      await x.run('Enter()');
      const enters = next === 0x60 ? 1 : 2; // the first Enter is dropped while input is inhibited
      await until(() => h.records[0]?.length === enters, 's3270 sent its Enter');

      const s = await connectSession(parse(`tn3270://127.0.0.1:${h.port}`), { transcript: true });
      const out = outputReader(s);
      await out.until(/LAB/);
      s.write(enc('abcdefghijklmnopqrstu'));
      assert.equal(s.screen.cursor, row * 80 + col, 'the cursor after the field filled, as s3270 has it');
      s.write(enc('v'));
      assert.equal(s.screen.operatorError === null, theirs22.ok, `the 22nd character: s3270 ${theirs22.data}`);
      if (!theirs22.ok) {
        assert.deepEqual(theirs22.data, ['Keyboard locked']);
        await out.until(/X Protected keyboard locked: Reset \(Ctrl-R\) unlocks/); // the status line
        assert.match(s.status()[2], /^keyboard locked \(operator error: X Protected; Reset unlocks\)/);
      }
      s.write(enc('\r')); // refused while input is inhibited, as s3270 drops it; else sent
      // s3270's Enter() returns once the host restored the keyboard: so does this one.
      if (enters === 2)
        await until(() => h.records[1]?.length === 1 && !s.screen.locked, 'the host restored the keyboard');
      s.write(enc('\x12')); // Reset
      s.write(enc('\r'));
      await until(() => h.records[1]?.length === enters, 'locator sent its Enter');
      await new Promise((r) => setTimeout(r, 100)); // nothing more
      assert.deepEqual(h.records[1], h.records[0], 'the records sent: AID, cursor address, the fields');
      assert.equal(h.records[0][0].slice(0, 6), next === 0x60 ? '7dc5e2' : '7dc6d2');
      s.close();
      await s.closed;
    } finally {
      await x.quit();
      await h.close();
    }
  });
}
