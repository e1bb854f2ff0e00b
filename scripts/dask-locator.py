#!/usr/bin/env python3
"""Run `locator parse|normalize|lint|explain --json` (or `extract --json`, or `archive`) inside Dask.

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

`archive` spreads a crawl instead (docs/archive.md, "Dask"): the seeds are partitioned by server
(host and port, the politeness engine's key), so that no server is in two partitions and the
per-server rates of each `locator archive` hold across the cluster; each partition is one
`locator archive --index` on a worker, writing its WARC files, its CDXJ and its rows into its own
folder OUT/part-N/, and the partitions' sorted indexes are merged into OUT/locator.cdxj, each
line's filename made relative to OUT. Exit status: locator archive's (0, 1 a seed invalid, 3 an
object not retrieved: the worst of the partitions'), 4 when a partition's run failed (no merged
index), 2 for a usage error.

    python3 scripts/dask-locator.py archive --workers 2 --out out/ gopher://h/ ftp://h/pub/ http://h/

Needs Dask and distributed (Debian: python3-distributed, for /usr/bin/python3).
"""
import argparse
import heapq
import json
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
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["archive"]:
        return archive_main(argv[1:])
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


# --- archive: a crawl spread over the cluster ------------------------------------------------

# `locator archive` exits 0 (all archived), 1 (a seed is not a valid URL) or 3 (an object could not
# be retrieved): the run went through and its rows say which. Anything else is a failed run.
ARCHIVE_EXITS = (0, 1, 3)
# The driver's own status when a partition's run failed (no merged index is written).
ARCHIVE_FAILED = 4
FILENAME_FIELD = b'"filename":"'


def server_keys(seeds, locator, scope):
    """The key each seed is partitioned by, from locator's own parse of it: for --scope server and
    prefix the politeness engine's server (src/crawl/scope.ts serverKey(): the host lowercased,
    a colon and the port as written, else the scheme's default; `scheme:` for a URL with no host),
    for --scope host the host alone (every port of a host is then in one partition). None for a
    seed that is not a valid URL (locator reports it `invalid`)."""
    data = "".join(s + "\n" for s in seeds).encode("utf-8", "surrogateescape")
    proc = subprocess.run(["node", locator, "parse", "--json"], input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"locator parse exited {proc.returncode}: {proc.stderr.decode('utf-8', 'replace').strip()}")
    rows = proc.stdout.decode("utf-8").splitlines()
    if len(rows) != len(seeds):
        raise RuntimeError(f"locator parse: {len(seeds)} seeds in, {len(rows)} rows out")
    keys = []
    for row in rows:
        u = json.loads(row)
        host = u.get("host")
        if not u.get("ok"):
            keys.append(None)
        elif not host:
            keys.append(f"{u['scheme']}:")
        elif scope == "host":
            keys.append(host.lower())
        else:
            port = u["portDigits"] if u.get("portDigits") is not None else u.get("port")
            keys.append(f"{host.lower()}:{'' if port is None else port}")
    return keys


def partition_seeds(seeds, keys, n):
    """The seeds cut into at most `n` partitions with every server (key) in exactly one: the
    servers, most seeds first, each given to the partition with the fewest seeds so far (the
    longest-processing-time rule; ties to the lower index), the seeds of a partition in their
    order on the command line. Invalid seeds go with the first partition. Deterministic: the same
    seeds give the same partitions, so a run resumed with --state finds each part's state again."""
    groups = {}
    for seed, key in zip(seeds, keys):
        groups.setdefault(key if key is not None else "", []).append(seed)
    order = sorted(groups, key=lambda k: (-len(groups[k]), k))
    parts = [[] for _ in range(max(1, min(n, len(groups))))]
    for key in order:
        min(parts, key=len).extend(groups[key])
    rank = {seed: i for i, seed in enumerate(seeds)}
    return [sorted(p, key=lambda s: rank[s]) for p in parts if p]


def part_name(i):
    return f"part-{i:05d}"


def archive_part(i, seeds, locator, out, extra, state):
    """One partition on a worker: `locator archive --json --index -o OUT/part-N/ SEEDS`, its WARC
    files, its CDXJ (locator.cdxj) and its rows (archive.ndjson) in its own folder. Returns the
    exit status, the counts of the rows by status, and the worker that ran it."""
    folder = os.path.join(out, part_name(i))
    os.makedirs(folder, exist_ok=True)
    args = ["node", locator, "archive", "--json", "--index", "-o", folder + "/", *extra]
    if state:
        args += ["--state", os.path.join(folder, "state")]
    rows_path = os.path.join(folder, "archive.ndjson")
    with open(rows_path, "wb") as rows:
        proc = subprocess.run([*args, "--", *seeds], stdout=rows, stderr=subprocess.PIPE)
    err = proc.stderr.decode("utf-8", "replace").strip()
    if proc.returncode not in ARCHIVE_EXITS:
        raise RuntimeError(f"locator archive (partition {i}) exited {proc.returncode}: {err}")
    counts = {}
    with open(rows_path, "rb") as rows:
        for line in rows:
            status = json.loads(line)["status"]
            counts[status] = counts.get(status, 0) + 1
    try:
        from distributed import get_worker

        worker = get_worker().address
    except (ImportError, ValueError):
        worker = "local"
    return {"part": i, "exit": proc.returncode, "counts": counts, "worker": worker, "summary": err.splitlines()[-1:]}


def index_lines(path, name):
    """The lines of a partition's CDXJ with `filename` made relative to the output root
    (`part-N/locator-....warc.gz`). The same prefix put before every filename of one file keeps
    its lines in order, so each stream stays sorted. `"filename":"` cannot occur inside a JSON
    string (a quote there is escaped), so its one occurrence is the field."""
    prefix = (name + "/").encode()
    with open(path, "rb") as f:
        for line in f:
            at = line.find(FILENAME_FIELD)
            if at < 0 or not line.endswith(b"\n"):
                raise RuntimeError(f"{path}: not a CDXJ line of locator: {line[:200]!r}")
            at += len(FILENAME_FIELD)
            yield line[:at] + prefix + line[at:]


def merge_indexes(out, names, target):
    """One sorted CDXJ of the partitions' sorted ones: a k-way merge (heapq.merge) of the lines by
    their octets without the LF, as locator sorts them (`LC_ALL=C sort`), written under a temporary
    name and renamed. Returns the number of lines."""
    streams = []
    for name in names:
        path = os.path.join(out, name, "locator.cdxj")
        if os.path.exists(path):
            streams.append(index_lines(path, name))
    n = 0
    previous = None
    tmp = f"{target}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            for line in heapq.merge(*streams, key=lambda l: l[:-1]):
                if previous is not None and line[:-1] < previous:
                    raise RuntimeError(f"a partition's index is not sorted: {line[:200]!r}")
                previous = line[:-1]
                f.write(line)
                n += 1
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return n


def archive_main(argv):
    ap = argparse.ArgumentParser(
        prog="dask-locator.py archive",
        description="`locator archive` spread over a Dask cluster: the seeds partitioned by server, "
        "each partition archived by one worker into its own folder, one merged sorted CDXJ at the end",
    )
    ap.add_argument("seeds", nargs="*", help="the URLs to crawl from")
    ap.add_argument("--seeds", dest="seeds_file", help="a file of seeds, one URL per line (with or instead of the arguments)")
    ap.add_argument("--out", required=True, help="the output folder: OUT/part-N/ for each partition, OUT/locator.cdxj merged")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes (default 2)")
    ap.add_argument("--scheduler", help="address of an existing Dask scheduler (instead of a LocalCluster)")
    ap.add_argument("--partitions", type=int, help="at most this many partitions (default: the number of workers)")
    ap.add_argument(
        "--scope",
        default="server",
        choices=("server", "prefix", "host"),
        help="locator's --scope; partitions are cut by server for server and prefix, by host for host "
        "(domain is refused: a domain's servers could fall in two partitions)",
    )
    ap.add_argument("--state", action="store_true", help="keep each partition's crawl state in OUT/part-N/state (run again to resume)")
    ap.add_argument("--locator", default=DEFAULT_LOCATOR, help="path of locator's dist/cli/main.js")
    ap.add_argument("--arg", action="append", default=[], help="an extra option for locator archive (repeatable)")
    args = ap.parse_args(argv)
    seeds = list(args.seeds)
    if args.seeds_file:
        with open(args.seeds_file, encoding="utf-8", errors="surrogateescape") as f:
            seeds += [line.rstrip("\n") for line in f if line.strip()]
    if not seeds:
        ap.error("no seed: give URLs, or --seeds FILE")
    if any("\n" in s or "\r" in s for s in seeds):
        ap.error("a seed holds a line end")
    seeds = list(dict.fromkeys(seeds))
    for a in args.arg:
        if a.split("=")[0] in ("-o", "--output", "--scope", "--state", "--index", "--json"):
            ap.error(f"{a.split('=')[0]} is set by the driver, not by --arg")

    from dask.distributed import Client, LocalCluster

    locator = os.path.abspath(args.locator)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    extra = [f"--scope={args.scope}", *args.arg]
    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        client.wait_for_workers(args.workers)
    started = time.monotonic()
    try:
        workers = len(client.scheduler_info()["workers"]) or 1
        keys = server_keys(seeds, locator, args.scope)
        parts = partition_seeds(seeds, keys, args.partitions or workers)
        futures = [
            client.submit(archive_part, i, p, locator, out, extra, args.state, key=f"locator-archive-{part_name(i)}", pure=False)
            for i, p in enumerate(parts)
        ]
        try:
            results = client.gather(futures)
        except Exception as e:  # a partition's run failed: its message, no merged index
            print(f"dask-locator archive: {e}", file=sys.stderr)
            return ARCHIVE_FAILED
        names = [part_name(r["part"]) for r in results]
        lines = merge_indexes(out, names, os.path.join(out, "locator.cdxj"))
        counts = {}
        for r in results:
            for k, v in r["counts"].items():
                counts[k] = counts.get(k, 0) + v
            print(f"{part_name(r['part'])} on {r['worker']}: {' '.join(r['summary'])}", file=sys.stderr)
        seconds = time.monotonic() - started
        servers = len({k for k in keys if k is not None})
        print(
            f"archive: {sum(counts.values())} URLs ("
            + ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
            + f") from {servers} servers in {len(parts)} partitions on {len({r['worker'] for r in results})} workers "
            f"in {seconds:.2f} s; {lines} index lines in {os.path.join(out, 'locator.cdxj')}",
            file=sys.stderr,
        )
        exits = {r["exit"] for r in results}
        return 1 if 1 in exits else 3 if 3 in exits else 0
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    sys.exit(main())
