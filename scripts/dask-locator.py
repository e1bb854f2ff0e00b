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


def count_lines(path):
    """The number of LF-ended lines in a file, and whether it ends without one. Read into one
    buffer, reused: a new bytes object per chunk cost fresh pages each time (Dask's workers set
    MALLOC_TRIM_THRESHOLD_ low), 1.6 s for a part of 200 MB against 0.3-0.5 s this way."""
    n = 0
    last = 10
    buf = bytearray(1 << 22)
    with open(path, "rb", buffering=0) as f:
        while True:
            got = f.readinto(buf)
            if not got:
                break
            n += buf.count(b"\n", 0, got)
            last = buf[got - 1]
    return n, last != 10


def pipe_block(block, locator, command, extra, part):
    """One block of lines (bytes, cut at a LF) through `locator COMMAND --json`, its NDJSON rows
    written by locator straight into the file `part`; returns the number of rows.

    The bytes go to locator as they are: no decoding, no newline translation (Dask's read_text
    would turn a lone CR into a line end, and batch mode keeps it in the line: docs/cli.md). The
    rows are not read into Python: an earlier version returned them as a list of strings, one bag
    element per row, and Dask's handling of a million small objects made 1 worker 4.7x slower than
    one locator process (bench/RESULTS.md, Dask). Like a Hadoop Streaming mapper, the task writes
    its output where the job collects it, and only a count travels back.
    """
    lines = block.count(b"\n") + (1 if block and not block.endswith(b"\n") else 0)
    with open(part, "wb") as out:
        proc = subprocess.Popen(
            ["node", locator, command, "--json", *extra],
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=subprocess.PIPE,
        )

        def feed():
            try:
                proc.stdin.write(block)
            except BrokenPipeError:
                pass  # locator failed; its status and stderr say why below
            finally:
                proc.stdin.close()

        # Written from a thread while stderr is read, so that neither pipe can fill and stall.
        writer = threading.Thread(target=feed)
        writer.start()
        err = proc.stderr.read()
        writer.join()
        status = proc.wait()
    # Exit 1 means "some input invalid" (its rows say which); anything else is a failure of the run.
    if status not in (0, 1):
        raise RuntimeError(f"locator {command} exited {status}: {err.decode('utf-8', 'replace').strip()}")
    rows, unterminated = count_lines(part)
    if unterminated or rows != lines:
        raise RuntimeError(f"locator {command}: {lines} lines in, {rows} rows out")
    return rows


def extract_file(path, locator, extra, part):
    """One whole file through `locator extract --json FILE` (a file is never cut: see above), its
    rows written into the file `part`; returns the number of rows."""
    with open(part, "wb") as out:
        proc = subprocess.run(["node", locator, "extract", "--json", *extra, path], stdout=out, stderr=subprocess.PIPE)
    # Exit 1 is "no URL found" for extract: an empty result, not a failure.
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"locator extract {path} exited {proc.returncode}: {proc.stderr.decode().strip()}")
    return count_lines(part)[0]


def balanced_blocksize(total, most, workers):
    """A block size of at most `most` bytes that cuts `total` bytes into a multiple of `workers`
    partitions of about equal size. 5 partitions on 2 workers leave one worker alone with the
    last; 6 do not (the Dask benchmark: 4M lines in 32 MiB blocks made 5)."""
    if total <= 0:
        return most
    n = max(1, -(-total // most))
    n = -(-n // workers) * workers
    return max(1, -(-total // n))


def main(argv=None):
    ap = argparse.ArgumentParser(description="locator as a streaming mapper inside Dask")
    ap.add_argument("command", choices=ROW_COMMANDS + ("extract",))
    ap.add_argument("files", nargs="+", help="input text files (one URL per line, LF ends a line; any text for extract)")
    ap.add_argument("--out", required=True, help="the merged NDJSON output file")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes (default 2)")
    ap.add_argument("--scheduler", help="address of an existing Dask scheduler (instead of a LocalCluster)")
    ap.add_argument(
        "--blocksize",
        default="16MiB",
        help="most bytes per partition, cut at a line end (default 16MiB); the partitions are made "
        "a multiple of the worker count, so that no worker waits alone for the last one",
    )
    ap.add_argument("--locator", default=DEFAULT_LOCATOR, help="path of locator's dist/cli/main.js")
    ap.add_argument("--arg", action="append", default=[], help="an extra option for locator (repeatable)")
    args = ap.parse_args(argv)

    import dask
    import dask.bag as db
    from dask.bytes import read_bytes
    from dask.distributed import Client, LocalCluster
    from dask.utils import parse_bytes

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
        part = lambda i: os.path.join(parts_dir, f"{i}.part")
        if args.command == "extract":
            # One partition per file, each element (index, path).
            paths = list(enumerate(os.path.abspath(f) for f in args.files))
            bag = db.from_sequence(paths, npartitions=len(paths))
            rows = bag.map(lambda ip: extract_file(ip[1], locator, args.arg, part(ip[0])))
            npartitions = len(paths)
        else:
            # Blocks of bytes cut just after a LF (read_bytes), one partition each, files in order;
            # each partition's one element is the count of rows its task wrote.
            size = balanced_blocksize(
                sum(os.path.getsize(f) for f in args.files),
                parse_bytes(args.blocksize),
                len(client.scheduler_info()["workers"]) or 1,
            )
            _, blocks = read_bytes(args.files, delimiter=b"\n", blocksize=size, sample=False)
            pipe = dask.delayed(lambda *a: [pipe_block(*a)], pure=True)
            flat = [b for per_file in blocks for b in per_file]
            rows = db.from_delayed([pipe(b, locator, args.command, args.arg, part(i)) for i, b in enumerate(flat)])
            npartitions = len(flat)
        # Each task writes its part file (0.part, 1.part, ...) in a folder beside --out; the parts
        # are then concatenated in order. (On a cluster, that folder must be shared by the
        # workers, as Hadoop Streaming's mappers share HDFS.)
        lines = rows.sum().compute() if npartitions > 0 else 0
        tmp = args.out + ".tmp"
        with open(tmp, "wb") as out:
            for i in range(npartitions):
                with open(part(i), "rb") as p:
                    # In the kernel (sendfile), not through Python's buffers: the parts are large.
                    left = os.fstat(p.fileno()).st_size
                    while left > 0:
                        sent = os.sendfile(out.fileno(), p.fileno(), None, min(left, 1 << 30))
                        if sent == 0:
                            raise RuntimeError(f"{part(i)} ended early")
                        left -= sent
        os.replace(tmp, args.out)  # never a half-written file under the final name
        seconds = time.monotonic() - started
        workers = len(client.scheduler_info()["workers"])
        print(
            f"{args.command}: {lines} rows from {npartitions} partitions on {workers} workers "
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
