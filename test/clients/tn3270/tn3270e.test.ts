// TN3270E (RFC 2355) sessions against the tests' own TN3270E server (./tn3270e-server.ts: Hercules
// 3.13 offers no TN3270E), and the same session read by s3270 (Debian's scripted member of the
// x3270 family, installed by test/servers/install.sh) compared with what locator draws: the
// screen text row by row, and each field's position, attribute, colour and highlighting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { connectSession, type Tn3270Session } from '../../../src/clients/tn3270/session.js';
import { parse } from '../../helpers.js';
import { outputReader } from '../session-helpers.js';
import { tn3270eServer } from './tn3270e-server.js';

const enc = (s: string) => new TextEncoder().encode(s);

test('RFC 2355: device type, functions (a counter-proposal), responses; PA1, a command and its output; NVT-DATA and back; PF3 ends cleanly', async () => {
  const srv = await tn3270eServer();
  try {
    const s = await connectSession(parse(`tn3270://127.0.0.1:${srv.port}`), { transcript: true, model: 4 });
    const out = outputReader(s);
    await out.until(/READY/);
    const sent = s.transcript.filter((l) => l.direction === 'send').map((l) => l.text);
    assert.deepEqual(sent.slice(0, 4), [
      'WILL TN3270E',
      'SB TN3270E DEVICE-TYPE REQUEST IBM-3278-4-E',
      'SB TN3270E FUNCTIONS REQUEST BIND-IMAGE RESPONSES',
      'SB TN3270E FUNCTIONS IS RESPONSES',
    ]);
    assert.ok(s.transcript.some((l) => l.text === 'SB TN3270E DEVICE-TYPE IS IBM-3278-4-E CONNECT LU0001'));
    assert.match(s.status()[1], /43x80.*TN3270E \(RFC 2355\), device LU0001, functions RESPONSES/);
    assert.deepEqual([s.screen.rows, s.screen.cols], [43, 80], 'EWA: the alternate size of model 4');
    const lines = s.screenText().split('\n');
    assert.equal(lines[0], '  LOCATOR TEST CONSOLE '.padEnd(80));
    assert.match(lines[41], /^ COMMAND ===> /);
    assert.match(out.text(), /\x1b\[0;1;7;36m LOCATOR/, 'the title: intensified, reverse, turquoise');
    assert.match(out.text(), /\x1b\[0;31mREADY/, 'the status in red');
    s.write(enc('D T\r'));
    await out.until(/IEE136I LOCAL: TIME=12\.00\.00/);
    s.write(enc('\x1b1'));
    await out.until(/PA1 PRESSED/);
    assert.deepEqual(srv.clients[0].aids, ['ENTER', 'PA1']);
    assert.deepEqual(srv.clients[0].commands, ['D T']);
    // Each 3270-DATA record asked for a response: one positive (0x00) response each, by SEQ-NUMBER.
    const t0 = Date.now();
    while (srv.clients[0].responses.length < srv.clients[0].sent.length && Date.now() - t0 < 2000)
      await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(
      srv.clients[0].responses,
      srv.clients[0].sent.map((seq) => ({ seq, flag: 0 })),
    );
    // NVT-DATA: the text drawn as it is, a typed line sent as NVT-DATA; the 3270 screen comes back.
    for (const c of 'NVT\r') s.write(enc(c));
    await out.until(/NVT MODE: TYPE A LINE/);
    s.write(enc('hello\r'));
    await out.until(/NVT LINE: hello/);
    assert.deepEqual(srv.clients[0].nvt, ['hello']);
    assert.ok(s.transcript.some((l) => /NVT mode/.test(l.text)));
    s.write(enc('\x1bOR')); // PF3: the server logs off
    await s.closed;
  } finally {
    await srv.close();
  }
});

/** s3270 driven through its standard input: one action at a time, its `data:` lines back. */
function s3270(model: string) {
  const p = spawn('s3270', ['-model', model], { stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  p.stdout.on('data', (d) => (out += d));
  return {
    async run(action: string): Promise<string[]> {
      out = '';
      p.stdin.write(action + '\n');
      const t0 = Date.now();
      while (!/^(ok|error)$/m.test(out) && Date.now() - t0 < 10000) await new Promise((r) => setTimeout(r, 20));
      assert.match(out, /^ok$/m, `s3270 ${action}: ${out}`);
      return out
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6));
    },
    async quit() {
      p.stdin.end('Quit()\n');
      await new Promise((r) => (p.exitCode !== null ? r(null) : p.on('exit', r)));
    },
  };
}

/** s3270's ReadBuffer(Ascii) as positions: each field attribute with its c0 (3270 attribute), 41 (highlighting), 42 (colour). */
function s3270Fields(rows: string[]): {
  fields: { at: number; fa: number; hl: number; color: number }[];
  colored: [number, number][];
} {
  const fields = [];
  const colored: [number, number][] = [];
  const pairs = (s: string) => Object.fromEntries(s.split(',').map((x) => x.split('=').map((v) => parseInt(v, 16))));
  let p = 0;
  let color = 0;
  for (const row of rows) {
    for (const tok of row.trim().split(' ')) {
      const sf = /^SF\((.*)\)$/.exec(tok);
      const sa = /^SA\((.*)\)$/.exec(tok);
      if (sa !== null) {
        color = pairs(sa[1])[0x42] ?? color;
        continue;
      }
      if (sf !== null) {
        const kv = pairs(sf[1]);
        fields.push({ at: p, fa: kv[0xc0] ?? 0, hl: kv[0x41] ?? 0, color: kv[0x42] ?? 0 });
      } else if (color !== 0) colored.push([p, color]);
      p++;
    }
  }
  return { fields, colored };
}

function locatorFields(s: Tn3270Session) {
  return s.screen.fields().map((f) => ({
    at: f.at,
    fa: f.attribute,
    hl: s.screen.highlight[f.at],
    color: s.screen.color[f.at],
  }));
}

const hasS3270 = spawnSync('s3270', ['-v']).error === undefined;

test(
  's3270 and locator read the same TN3270E session alike: the screen text, and each field',
  { skip: hasS3270 ? false : 's3270 is not installed (test/servers/install.sh installs it)' },
  async () => {
    const srv = await tn3270eServer();
    const x = s3270('3279-4-E');
    try {
      const s = await connectSession(parse(`tn3270://127.0.0.1:${srv.port}`), { model: 4 });
      const out = outputReader(s);
      await out.until(/READY/);
      await x.run(`Connect(127.0.0.1:${srv.port})`);
      await x.run('Wait(10,InputField)');
      const compare = async (when: string) => {
        const theirs = await x.run('Ascii()');
        assert.deepEqual(s.screenText().split('\n'), theirs, `${when}: the screen text`);
        const { fields, colored } = s3270Fields(await x.run('ReadBuffer(Ascii)'));
        const ours = locatorFields(s);
        const ourColored: [number, number][] = [];
        for (let p = 0; p < s.screen.size; p++)
          if (s.screen.attrs[p] < 0 && s.screen.color[p] !== 0) ourColored.push([p, s.screen.color[p]]);
        assert.deepEqual(ourColored, colored, `${when}: the characters with a colour of their own (SA)`);
        assert.deepEqual(
          ours.map((f) => f.at),
          fields.map((f) => f.at),
          `${when}: the field positions`,
        );
        // s3270 prints the attribute in its graphic form (bits 0-1 set); the MDT is the operator's.
        assert.deepEqual(
          ours.map((f) => [f.fa & 0x3e, f.hl, f.color]),
          fields.map((f) => [f.fa & 0x3e, f.hl, f.color]),
          `${when}: each field's attribute, highlighting and colour`,
        );
      };
      await compare('the first screen');
      s.write(enc('D T\r'));
      await out.until(/IEE136I/);
      await x.run('String("D T")');
      await x.run('Enter()');
      await x.run('Wait(10,Unlock)');
      await compare('after D T');
      assert.ok(
        s.screen.color.some((c, p) => c !== 0 && s.screen.attrs[p] < 0),
        'the comparison saw SA colours',
      );
      s.close();
      await s.closed;
    } finally {
      await x.quit();
      await srv.close();
    }
  },
);
