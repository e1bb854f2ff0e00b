// A crawl run in its own process, to be killed (engine.test.ts): crawls the generated site of
// argv[3] pages into the state folder argv[2], appending each URL it visits to argv[4].
import { appendFileSync } from 'node:fs';
import { crawl } from '../../src/crawl/engine.js';
import { SITE, siteVisitor } from './site.js';

const [dir, n, log] = process.argv.slice(2);
const visitor = siteVisitor(Number(n), (url) => appendFileSync(log, url + '\n'), 3);
for await (const _ of crawl([`${SITE}/p/0.html`], visitor, { state: dir, parallel: 4, maxDepth: 1000 })) {
  // the results are on disk
}
