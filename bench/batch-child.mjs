// Runs the locator command line in this process (argv after this file's name), then reports the
// process's peak resident set (workers included: they are threads of it) on standard error as
// one JSON line, for bench/batch.bench.mjs. With `--workers N COMMAND` first, runs COMMAND --json
// over N worker threads directly (runWorkers(), which --jobs uses from 2 on), to time 1 worker.
process.on('exit', () => {
  process.stderr.write(JSON.stringify({ maxRssKB: process.resourceUsage().maxRSS }) + '\n');
});
const args = process.argv.slice(2);
if (args[0] === '--workers') {
  const { runWorkers } = await import('../dist/cli/batch.js');
  const kind = args[2];
  const opts =
    kind === 'parse'
      ? { json: true, trim: false, showSecrets: false }
      : { json: true, display: false, showSecrets: false };
  const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  process.exitCode = await runWorkers(io, false, Number(args[1]), { kind, opts, modules: [] });
} else {
  process.argv = [process.argv[0], new URL('../dist/cli/main.js', import.meta.url).pathname, ...args];
  await import('../dist/cli/main.js');
}
