#!/usr/bin/env node
// One `locator fetch URL` in its own process, run in-process through the command's own code
// (src/cli/fetch.ts: open(), the read loop, the write to standard output), with standard output
// going where the parent sends it (/dev/null in bench/fetch.bench.mjs). Prints on standard error
// the seconds from the command's start to its end (the request to the last byte written: connect
// and login included, Node's start-up and module loading not) and the peak resident memory of
// the process, and the CPU time (user and system) the transfer took. A warm-up fetch of a small object from the same server comes first (when given),
// so the time is the transfer's, as in a process that has been running.
import { fetchCommand } from '../dist/cli/fetch.js';

const [url, warm] = process.argv.slice(2);
const io = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: false,
  env: process.env,
};

async function fetchOnce(u) {
  const code = await fetchCommand.run([u], { 'no-gateway': true, quiet: true }, io);
  if (code !== 0) throw new Error(`locator fetch ${u}: exit ${code}`);
}

if (warm) await fetchOnce(warm);
const c0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
await fetchOnce(url);
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(c0);
const cpuMs = (cpu.user + cpu.system) / 1000;
process.stderr.write(JSON.stringify({ secs, cpuMs, maxRssKb: process.resourceUsage().maxRSS }) + '\n');
