#!/usr/bin/env python3
"""Run `locator parse|normalize|lint|explain --json` (or `extract --json`) inside Dask.

locator is the mapper, Dask the engine (issue 16, "Beyond one machine"): a dask.bag over text
files is cut into partitions at line boundaries, and each partition is piped through one
`locator COMMAND --json` process (stdin -> stdout), the way Hadoop Streaming or Spark's
`RDD.pipe()` run an external program. Batch mode gives exactly one output row per input line
(README, docs/cli.md), so a partition's rows are in its lines' order and the partitions are
written in the bag's order: the merged NDJSON equals the output of one process over the
concatenated input, line for line.

`extract` is the exception: a URL may be wrapped over several lines (RFC 1738 appendix), and its
rows carry the file, line and column it was found at, so a file is never cut: each file is one
partition, and `locator extract --json FILE` reads it whole.

    python3 scripts/dask-locator.py parse --workers 2 --out out.ndjson corpus/*.txt
    python3 scripts/dask-locator.py extract --scheduler tcp://host:8786 --out urls.ndjson archive/*

With --scheduler the bag runs on an existing cluster (every worker needs node and locator at
--locator); without it, on a LocalCluster of --workers processes (one thread each). The output
is written partition by partition (one part file per partition in a folder beside --out, then
concatenated in order), so no process holds more than one partition's rows.

Needs Dask and distributed (Debian: python3-distributed, for /usr/bin/python3).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROW_COMMANDS = ("parse", "normalize", "lint", "explain")
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_LOCATOR = os.path.join(HERE, "..", "dist", "cli", "main.js")


def pipe_block(block, locator, command, extra):
    """One block of lines (bytes, cut at a LF) through `locator COMMAND --json`: its NDJSON rows, in order.

    The bytes go to locator as they are: no decoding, no newline translation (Dask's read_text
    would turn a lone CR into a line end, and batch mode keeps it in the line: docs/cli.md). They
    are written from a thread while the rows are read, so neither pipe can fill and stall the
    other (a block is larger than a pipe's buffer).
    """
    lines = block.count(b"\n") + (1 if block and not block.endswith(b"\n") else 0)
    proc = subprocess.Popen(
        ["node", locator, command, "--json", *extra],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )

    def feed():
        try:
            proc.stdin.write(block)
        except BrokenPipeError:
            pass  # locator failed; its status and stderr say why below
        finally:
            proc.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    err = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()))
    reader.start()
    rows = proc.stdout.read().decode("utf-8").splitlines()
    writer.join()
    reader.join()
    status = proc.wait()
    # Exit 1 means "some input invalid" (its rows say which); anything else is a failure of the run.
    if status not in (0, 1):
        raise RuntimeError(f"locator {command} exited {status}: {err[0].decode('utf-8', 'replace').strip()}")
    if len(rows) != lines:
        raise RuntimeError(f"locator {command}: {lines} lines in, {len(rows)} rows out")
    return rows


def extract_file(path, locator, extra):
    """One whole file through `locator extract --json FILE` (a file is never cut: see above)."""
    proc = subprocess.run(["node", locator, "extract", "--json", *extra, path], capture_output=True)
    # Exit 1 is "no URL found" for extract: an empty result, not a failure.
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"locator extract {path} exited {proc.returncode}: {proc.stderr.decode().strip()}")
    return proc.stdout.decode("utf-8").splitlines()


def main(argv=None):
    ap = argparse.ArgumentParser(description="locator as a streaming mapper inside Dask")
    ap.add_argument("command", choices=ROW_COMMANDS + ("extract",))
    ap.add_argument("files", nargs="+", help="input text files (one URL per line, LF ends a line; any text for extract)")
    ap.add_argument("--out", required=True, help="the merged NDJSON output file")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes (default 2)")
    ap.add_argument("--scheduler", help="address of an existing Dask scheduler (instead of a LocalCluster)")
    ap.add_argument("--blocksize", default="16MiB", help="bytes per partition, cut at a line end (default 16MiB)")
    ap.add_argument("--locator", default=DEFAULT_LOCATOR, help="path of locator's dist/cli/main.js")
    ap.add_argument("--arg", action="append", default=[], help="an extra option for locator (repeatable)")
    args = ap.parse_args(argv)

    import dask
    import dask.bag as db
    from dask.bytes import read_bytes
    from dask.distributed import Client, LocalCluster

    locator = os.path.abspath(args.locator)
    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    started = time.monotonic()
    parts_dir = tempfile.mkdtemp(prefix=".parts-", dir=os.path.dirname(os.path.abspath(args.out)) or ".")
    try:
        if args.command == "extract":
            bag = db.from_sequence([os.path.abspath(f) for f in args.files], npartitions=len(args.files))
            rows = bag.map(extract_file, locator, args.arg).flatten()
        else:
            # Blocks of bytes cut just after a LF (read_bytes), one partition each, files in order.
            _, blocks = read_bytes(args.files, delimiter=b"\n", blocksize=args.blocksize, sample=False)
            pipe = dask.delayed(pipe_block, pure=True)
            rows = db.from_delayed([pipe(b, locator, args.command, args.arg) for per_file in blocks for b in per_file])
        # One part file per partition, named in order (0.part, 1.part, ...), then concatenated.
        names = rows.to_textfiles(os.path.join(parts_dir, "*.part"), encoding="utf-8")
        names = sorted(names, key=lambda p: int(os.path.basename(p).split(".")[0]))
        tmp = args.out + ".tmp"
        with open(tmp, "wb") as out:
            for name in names:
                with open(name, "rb") as part:
                    data = part.read()
                if data and not data.endswith(b"\n"):
                    data += b"\n"
                out.write(data)
        os.replace(tmp, args.out)  # never a half-written file under the final name
        lines = sum(1 for _ in open(args.out, "rb"))
        seconds = time.monotonic() - started
        workers = len(client.scheduler_info()["workers"])
        print(
            f"{args.command}: {lines} rows from {rows.npartitions} partitions on {workers} workers "
            f"in {seconds:.2f} s ({lines / seconds:,.0f} rows/s)",
            file=sys.stderr,
        )
    finally:
        shutil.rmtree(parts_dir, ignore_errors=True)
        client.close()
        if cluster is not None:
            cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
