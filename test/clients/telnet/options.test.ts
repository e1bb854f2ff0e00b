// Option negotiation (src/clients/telnet-engine/options.ts): RFC 1143's Q method, row by row from its
// section 7, and the properties that matter: no request is answered that changes nothing, two
// negotiators never loop, and a flooding server gets a bounded number of answers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Negotiator, MAX_ANSWERS, type Side } from '../../../src/clients/telnet-engine/options.js';
import { DO, DONT, WILL, WONT, type Verb } from '../../../src/clients/telnet-engine/protocol.js';
import { eachRow } from '../../helpers.js';

const NAMES: Record<number, string> = { [DO]: 'DO', [DONT]: 'DONT', [WILL]: 'WILL', [WONT]: 'WONT' };
const VERBS: Record<string, Verb> = { DO, DONT, WILL, WONT };

/**
 * A script of events on option 1 (ECHO, accepted from the server) or 2 (refused), each
 * `<WILL|WONT|DO|DONT>` received or `ask <us|him> <on|off>`; the replies sent, joined by " ".
 */
function play(script: string[], option = 1): string {
  const n = new Negotiator([1], [1]);
  const sent: string[] = [];
  for (const s of script) {
    const [a, side, on] = s.split(' ');
    const step = a === 'ask' ? n.request(side as Side, option, on === 'on') : n.receive(VERBS[a], option);
    sent.push(step.send.map((x) => NAMES[x.verb]).join('+') || '-');
  }
  return `${sent.join(' ')} | us ${n.enabled('us', option) ? 'on' : 'off'}, him ${n.enabled('him', option) ? 'on' : 'off'}`;
}

const ROWS: Array<[string[], number, string, string]> = [
  [['WILL'], 1, 'DO | us off, him on', 'RFC 1143 7: NO, WILL, agree'],
  [['WILL'], 2, 'DONT | us off, him off', 'RFC 1143 7: NO, WILL, refuse'],
  [['DO'], 1, 'WILL | us on, him off', 'RFC 1143 7: NO, DO, agree'],
  [['DO'], 2, 'WONT | us off, him off', 'RFC 1143 7: NO, DO, refuse'],
  [['WILL', 'WILL'], 1, 'DO - | us off, him on', 'RFC 1143 7: YES, WILL: ignore'],
  [['WONT'], 1, '- | us off, him off', 'RFC 1143 7: NO, WONT: ignore'],
  [['DONT'], 1, '- | us off, him off', 'RFC 1143 7: NO, DONT: ignore'],
  [['WILL', 'WONT'], 1, 'DO DONT | us off, him off', 'RFC 1143 7: YES, WONT'],
  [['ask him on', 'WILL'], 1, 'DO - | us off, him on', 'RFC 1143 7: WANTYES, WILL'],
  [['ask him on', 'WONT'], 1, 'DO - | us off, him off', 'RFC 1143 7: WANTYES, WONT'],
  [['ask him on', 'ask him off', 'WILL'], 1, 'DO - DONT | us off, him off', 'RFC 1143 7: WANTYES OPPOSITE, WILL'],
  [['ask him on', 'ask him off', 'WONT'], 1, 'DO - - | us off, him off', 'RFC 1143 7: WANTYES OPPOSITE, WONT'],
  [['WILL', 'ask him off', 'WONT'], 1, 'DO DONT - | us off, him off', 'RFC 1143 7: WANTNO, WONT'],
  [
    ['WILL', 'ask him off', 'ask him on', 'WONT'],
    1,
    'DO DONT - DO | us off, him off',
    'RFC 1143 7: WANTNO OPPOSITE, WONT',
  ],
  [['WILL', 'ask him off', 'WILL'], 1, 'DO DONT - | us off, him off', 'RFC 1143 7: WANTNO, WILL: an error'],
  [['ask him on', 'ask him on'], 1, 'DO - | us off, him off', 'RFC 1143 7: a request under way is not repeated'],
  [['ask us on', 'DO'], 1, 'WILL - | us on, him off', 'RFC 1143 7: WANTYES, DO'],
  [['DO', 'DONT'], 1, 'WILL WONT | us off, him off', 'RFC 1143 7: YES, DONT'],
];

eachRow('Negotiator', ROWS, ([script, option, want]) => assert.equal(play(script, option), want), {
  input: (r) => `${r[0].join(', ')} on ${r[1]}`,
  section: (r) => r[3],
});

/** Two negotiators joined back to back: every reply of one is received by the other. */
function converse(a: Negotiator, b: Negotiator, first: Array<{ verb: Verb; option: number }>): number {
  let queue: Array<{ to: Negotiator; verb: Verb; option: number }> = first.map((x) => ({ to: b, ...x }));
  let messages = 0;
  while (queue.length > 0) {
    const next: typeof queue = [];
    for (const m of queue) {
      messages++;
      const step = m.to.receive(m.verb, m.option);
      const other = m.to === a ? b : a;
      for (const s of step.send) next.push({ to: other, ...s });
    }
    queue = next;
    if (messages > 10_000) break;
  }
  return messages;
}

test('two negotiators with random requests always fall silent (RFC 1143: no loops; fast-check, seed 1143)', () => {
  const req = fc.record({
    side: fc.constantFrom<Side>('us', 'him'),
    option: fc.integer({ min: 0, max: 3 }),
    on: fc.boolean(),
    who: fc.boolean(),
  });
  fc.assert(
    fc.property(
      fc.array(req, { maxLength: 12 }),
      fc.subarray([0, 1, 2, 3]),
      fc.subarray([0, 1, 2, 3]),
      (reqs, x, y) => {
        const a = new Negotiator(x, y, Infinity);
        const b = new Negotiator(y, x, Infinity);
        for (const r of reqs) {
          const from = r.who ? a : b;
          const step = from.request(r.side, r.option, r.on);
          const n = r.who ? converse(a, b, step.send) : converse(b, a, step.send);
          assert.ok(n <= 4, `a request led to ${n} messages`);
        }
      },
    ),
    { seed: 1143, numRuns: 1000 },
  );
});

test('a flood of requests gets at most MAX_ANSWERS answers per option', () => {
  const n = new Negotiator([1], [1]);
  let answers = 0;
  for (let i = 0; i < 100_000; i++) {
    answers += n.receive(i % 2 ? WILL : WONT, 1).send.length; // turn ECHO on and off forever
    answers += n.receive(DO, 200).send.length; // ask for a refused option forever
  }
  assert.equal(answers, 2 * MAX_ANSWERS);
  assert.ok(n.ignored > 0);
});
