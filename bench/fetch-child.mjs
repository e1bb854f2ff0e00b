#!/usr/bin/env node
// One transfer through locator's open(), in its own process: prints the seconds from open() to
// the last byte (connect and login included, Node's start-up not) and the peak resident memory.
import { open } from '../dist/clients/index.js';

const [url, warm] = process.argv.slice(2);

async function transfer(u) {
  const { body } = await open(u, { gateway: false });
  let n = 0;
  for await (const chunk of body) n += chunk.length;
  return n;
}

// A warm-up transfer of a small object from the same server first (when given): the modules are
// loaded and compiled as in a process that has been running, so the time is the transfer's.
if (warm) await transfer(warm);
const t0 = process.hrtime.bigint();
const bytes = await transfer(url);
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(JSON.stringify({ secs, bytes, maxRssKb: process.resourceUsage().maxRSS }));
