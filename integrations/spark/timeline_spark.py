#!/usr/bin/env python3
"""Converts a CSV or NDJSON file to canonical timeline NDJSON or Parquet on Apache Spark, split
by split, with the `timeline` binary shipped to the executors, and validates it as one
`timeline validate` over the whole file would: each split's validation state is cut into the
partitions of its facts, shuffled, finished, and merged on the driver.

  timeline_spark.py INPUT OUTPUT [--timeline PATH] [--partitions N] [--from csv|ndjson]
                    [--format ndjson|parquet] [--partition-by day|month] [--report FILE]
                    [--report-format text|json] [-- TIMELINE-OPTIONS...]

  INPUT    a CSV (with its header line) or NDJSON file, UTF-8
  OUTPUT   a directory: part-NNNNN.ndjson (or .parquet) files, or with --partition-by
           day=YYYY-MM-DD/part-NNNNN.… (each event's day in the display zone), _validation.txt
           (or --report), and _SUCCESS
  TIMELINE-OPTIONS  given to every split's `timeline convert` (and so to the validation):
           --assume-zone, --zone, --map, --date-format, --ignore, …

No record passes through Python. When INPUT is a file the executors see at the same path (a
local run, a shared or mounted file system), each task runs `timeline convert INPUT
--byte-range A:B` and reads its split of the file itself (Hadoop's rule: the lines that start
in it), and writes its part of OUTPUT itself, which must be on a file system every executor
and the driver share. A first pass (`--count-records`) counts each split's records, so that
every split numbers its records and lines as a single run over INPUT does (`--first-record`,
`--first-line`; `--columns` for a CSV split after the first): ids, source references and the
report's examples are the single run's. A split that ends inside a quoted field is an error.
The validation state's pieces (about 133 bytes per event with ids and series) are files in
OUTPUT/_pieces while the job runs; only their paths pass through Spark's shuffle. Any other INPUT (hdfs://, s3a://) is read with Spark's textFile and piped
through Python, a slower path.

Run locally:    spark-submit --master 'local[2]' integrations/spark/timeline_spark.py orders.csv out --format parquet -- --assume-zone Asia/Shanghai
On a cluster:   spark-submit --master yarn integrations/spark/timeline_spark.py /shared/orders.csv /shared/lake/orders \\
                  --format parquet --partition-by day --timeline /opt/timeline/bin/timeline -- --assume-zone Asia/Shanghai
The binary (a Linux build for the executors' architecture) is shipped with SparkContext.addFile.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile


def parse_args(argv):
    if "--" in argv:
        i = argv.index("--")
        argv, passthrough = argv[:i], argv[i + 1:]
    else:
        passthrough = []
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--timeline", default=shutil.which("timeline") or "timeline",
                    help="the timeline binary to ship to the executors [default: timeline on PATH]")
    ap.add_argument("--partitions", type=int, default=None, help="at least this many partitions [default: Spark's]")
    ap.add_argument("--from", dest="fmt", choices=["csv", "ndjson"], default=None, help="input format [default: by extension]")
    ap.add_argument("--format", choices=["ndjson", "parquet"], default="ndjson", help="output format [default: ndjson]")
    ap.add_argument("--partition-by", choices=["day", "month"], default=None,
                    help="write OUTPUT/day=YYYY-MM-DD/part-… (each event's day in the display zone: --zone, else --assume-zone, else UTC)")
    ap.add_argument("--report", default=None, help="where the validation report goes [default: OUTPUT/_validation.txt]")
    ap.add_argument("--report-format", choices=["text", "json"], default="text")
    args = ap.parse_args(argv)
    args.passthrough = passthrough
    if args.fmt is None:
        lower = args.input.lower()
        if lower.endswith(".csv"):
            args.fmt = "csv"
        elif lower.endswith((".ndjson", ".jsonl")):
            args.fmt = "ndjson"
        else:
            ap.error(f"cannot tell the format of {args.input!r}; pass --from csv or --from ndjson")
    return args


def record_starts(lines, fmt):
    """For the lines of one partition (without the CSV header): how many records begin in it,
    and whether it ends outside a quoted field. Blank lines are no records; a CSV line begins a
    record when it starts outside quotes."""
    records, quoted = 0, False
    for line in lines:
        if not quoted and line.strip() != "":
            records += 1
        if fmt == "csv" and line.count('"') % 2 == 1:
            quoted = not quoted
    return records, not quoted


def convert_partition(binary, fmt, source, header, passthrough, starts):
    """The function each partition runs: its lines (with their global line index) piped into
    `timeline convert`; yields ("event", line) for each NDJSON line, then ("piece", (p, bytes)) for
    each of the 16 pieces of its validation state."""

    def run(index, rows):
        rows = [(line, i) for line, i in rows if not (fmt == "csv" and i == 0)]
        if not rows:
            return
        first_line = rows[0][1] + 1  # line numbers count from 1, the header included
        first_record = starts[index] + 1
        work = tempfile.mkdtemp(prefix="timeline-spark-")
        try:
            state = os.path.join(work, "state")
            command = [binary(), "convert", "-", "--from", fmt, "--to", "ndjson", "--sort", "input", "-q",
                       "--source-name", source, "--first-record", str(first_record), "--first-line", str(first_line),
                       "--validation-state", state] + passthrough
            if fmt == "csv":
                command += ["--columns", header]
            text = "".join(line + "\n" for line, _ in rows).encode("utf-8")
            done = subprocess.run(command, input=text, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if done.returncode != 0:
                raise RuntimeError(f"timeline convert failed on partition {index} (records from {first_record}, "
                                   f"line {first_line}), exit {done.returncode}:\n{done.stderr.decode('utf-8', 'replace')}")
            for line in done.stdout.decode("utf-8").splitlines():
                yield ("event", line)
            pieces = os.path.join(work, "pieces")
            split = subprocess.run([binary(), "validate", "--merge", state, "--split-out", pieces], stderr=subprocess.PIPE)
            if split.returncode != 0:
                raise RuntimeError(f"cutting the validation state of partition {index} failed:\n{split.stderr.decode('utf-8', 'replace')}")
            for name in sorted(os.listdir(pieces)):
                with open(os.path.join(pieces, name), "rb") as f:
                    yield ("piece", (int(name.removeprefix("partition-").removesuffix(".state")), f.read()))
        finally:
            shutil.rmtree(work, ignore_errors=True)

    return run


def finish_partition(binary):
    """The function each partition of the facts runs: its pieces from every input partition,
    written to files as they arrive, finished into one small state (`--finish-partitions`)."""

    def run(index, pieces):
        work = tempfile.mkdtemp(prefix="timeline-spark-finish-")
        try:
            paths = []
            for p, piece in pieces:
                if isinstance(piece, str):  # a file on the shared file system
                    paths.append(piece)
                    continue
                paths.append(os.path.join(work, f"piece-{p:02d}-{len(paths):06d}.state"))
                with open(paths[-1], "wb") as f:
                    f.write(piece)
            if not paths:
                return
            finished = os.path.join(work, "finished.state")
            done = subprocess.run([binary(), "validate", "--merge", *paths, "--finish-partitions", "--state-out", finished],
                                  stderr=subprocess.PIPE)
            if done.returncode != 0:
                raise RuntimeError(f"finishing partition {index} of the validation facts failed:\n{done.stderr.decode('utf-8', 'replace')}")
            with open(finished, "rb") as f:
                yield f.read()
        finally:
            shutil.rmtree(work, ignore_errors=True)

    return run


def split_bounds(size, partitions):
    """Byte ranges that tile a file of `size` bytes, none empty."""
    bounds = sorted({(size * i // partitions, size * (i + 1) // partitions) for i in range(partitions)})
    return [(a, b) for a, b in bounds if a < b]


def count_split(binary, path, fmt):
    """The function each split runs first: its records and lines, counted by the binary
    reading its byte range of the file."""

    def run(item):
        i, (a, b) = item
        done = subprocess.run([binary(), "convert", path, "--from", fmt, "--byte-range", f"{a}:{b}",
                               "--count-records"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if done.returncode != 0:
            raise RuntimeError(f"counting split {i} (bytes {a}:{b}) failed:\n{done.stderr.decode('utf-8', 'replace')}")
        return i, json.loads(done.stdout)

    return run


def convert_split(binary, path, fmt, header, passthrough, output, out_format, partition_by):
    """The function each split runs: `timeline convert` over its byte range of the file,
    writing its part (or its day partitions' parts) into OUTPUT; yields the 16 pieces of its
    validation state as (partition, bytes)."""

    def run(items):
        for i, (a, b), first_record, first_line in items:
            work = tempfile.mkdtemp(prefix="timeline-spark-")
            try:
                state = os.path.join(work, "state")
                command = [binary(), "convert", path, "--from", fmt, "--byte-range", f"{a}:{b}", "-q",
                           "--to", out_format, "--validation-state", state] + passthrough
                if i > 0:
                    command += ["--first-record", str(first_record), "--first-line", str(first_line)]
                    if fmt == "csv":
                        command += ["--columns", header]
                if partition_by:
                    parts = os.path.join(work, "parts")
                    command += ["--partition-by", partition_by, "-o", parts]
                else:
                    command += ["--sort", "input", "-o", os.path.join(output, f"part-{i:05d}.{out_format}")]
                done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                if done.returncode != 0:
                    raise RuntimeError(f"timeline convert failed on split {i} (bytes {a}:{b}, records from "
                                       f"{first_record}, line {first_line}), exit {done.returncode}:\n"
                                       f"{done.stderr.decode('utf-8', 'replace')}")
                if partition_by:
                    for key in sorted(os.listdir(parts)):
                        os.makedirs(os.path.join(output, key), exist_ok=True)
                        for j, name in enumerate(sorted(os.listdir(os.path.join(parts, key)))):
                            suffix = "" if j == 0 else f"-{j}"
                            shutil.move(os.path.join(parts, key, name),
                                        os.path.join(output, key, f"part-{i:05d}{suffix}.{out_format}"))
                yield from state_pieces(binary, state, os.path.join(output, "_pieces", f"split-{i:05d}"), i)
            finally:
                shutil.rmtree(work, ignore_errors=True)

    return run


def state_pieces(binary, state, pieces, index):
    """A split's validation state cut into the 16 partitions of its facts, as files in
    `pieces` (on the shared file system): (partition, path), so that only paths go through
    Spark's shuffle."""
    split = subprocess.run([binary(), "validate", "--merge", state, "--split-out", pieces], stderr=subprocess.PIPE)
    if split.returncode != 0:
        raise RuntimeError(f"cutting the validation state of split {index} failed:\n{split.stderr.decode('utf-8', 'replace')}")
    for name in sorted(os.listdir(pieces)):
        yield (int(name.removeprefix("partition-").removesuffix(".state")), os.path.join(pieces, name))


def display_zone(passthrough):
    """The zone days are counted in, as `timeline` picks it: --zone, else --assume-zone, else UTC."""
    def option(name):
        for i, word in enumerate(passthrough):
            if word == name and i + 1 < len(passthrough):
                return passthrough[i + 1]
            if word.startswith(name + "="):
                return word.split("=", 1)[1]
        return None
    return option("--zone") or option("--assume-zone") or "UTC"


def resolve_zone(binary_path, zone_name):
    """The IANA id of a zone name as `timeline` resolves it (a Windows or legacy name, an
    abbreviation given with --abbrev: whatever the conversion itself accepted)."""
    import subprocess
    if zone_name.upper() in ("UTC", "Z", "GMT"):
        return "UTC"
    done = subprocess.run([binary_path, "zones", zone_name], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"timeline_spark: {done.stderr.strip() or 'cannot resolve the zone ' + repr(zone_name)}")
    return done.stdout.split("\t")[2]


def day_function(iana):
    """The day of an event's start in the display zone (an all-day event: its date), for
    --partition-by day. Computed in integers from the instant and the zone's offset there,
    so an instant at either end of the years 0001-9999 (whose day in the zone may be in
    year 0 or 10000) has a day like any other."""
    import datetime
    import json
    import zoneinfo
    zone = None if iana == "UTC" else zoneinfo.ZoneInfo(iana)
    lowest = datetime.datetime(1, 1, 2, tzinfo=datetime.timezone.utc)
    highest = datetime.datetime(9999, 12, 30, tzinfo=datetime.timezone.utc)

    def civil(days):
        # Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
        days += 719468
        era = days // 146097
        doe = days - era * 146097
        yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
        doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
        mp = (5 * doy + 2) // 153
        d = doy - (153 * mp + 2) // 5 + 1
        m = mp + 3 if mp < 10 else mp - 9
        y = yoe + era * 400 + (1 if m <= 2 else 0)
        return f"{y:04d}-{m:02d}-{d:02d}"

    def day(line):
        start = json.loads(line).get("start", {})
        if "instant" in start:
            instant = datetime.datetime.fromisoformat(start["instant"].replace("Z", "+00:00"))
            seconds = (instant - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)) // datetime.timedelta(seconds=1)
            offset = 0
            if zone is not None:
                at = min(max(instant, lowest), highest)
                offset = int(at.astimezone(zone).utcoffset().total_seconds())
            return civil((seconds + offset) // 86400)
        return (start.get("date") or "unknown")[:10]

    return day


def run_piped(spark, sc, args, binary, binary_path):
    """The slower path, for an INPUT only Spark can read (hdfs://, s3a://): its lines come
    through Spark's textFile into Python, are piped through `timeline convert -`, and the
    events go back to Spark's saveAsTextFile."""
    if args.format != "ndjson" or args.partition_by == "month":
        sys.exit("timeline_spark: Parquet output and --partition-by month need INPUT on a file system "
                 "the executors share (a local, mounted or network path)")
    lines = sc.textFile(args.input, minPartitions=args.partitions) if args.partitions else sc.textFile(args.input)
    indexed = lines.zipWithIndex()
    header = lines.first() if args.fmt == "csv" else None
    fmt = args.fmt
    counts = indexed.mapPartitionsWithIndex(
        lambda i, rows: [(i, record_starts((l for l, n in rows if not (fmt == "csv" and n == 0)), fmt))]).collect()
    starts, total = {}, 0
    for i, (records, closed) in sorted(counts):
        if not closed:
            sys.exit(f"timeline_spark: partition {i} of {args.input} ends inside a quoted field (a record spans the "
                     "partition boundary); use fewer partitions, or a file whose records are one line each")
        starts[i] = total
        total += records

    converted = indexed.mapPartitionsWithIndex(
        convert_partition(binary, fmt, args.input, header, args.passthrough, starts)).cache()
    events = converted.filter(lambda kv: kv[0] == "event").map(lambda kv: kv[1])
    if args.partition_by == "day":
        day = day_function(resolve_zone(binary_path, display_zone(args.passthrough)))
        frame = spark.createDataFrame(events.map(lambda line: (day(line), line)), "day string, value string")
        frame.write.partitionBy("day").mode("errorifexists").text(args.output)
    else:
        events.saveAsTextFile(args.output)
    pieces = converted.filter(lambda kv: kv[0] == "piece").map(lambda kv: kv[1])
    return pieces, total, converted


def run_splits(sc, args, binary):
    """Each task reads its byte range of INPUT and writes its part of OUTPUT itself; Spark
    carries only the counts and the validation state's pieces."""
    if args.fmt == "csv":
        with open(args.input, encoding="utf-8", newline="") as f:
            header = f.readline().rstrip("\r\n").removeprefix("\ufeff")
    else:
        header = None
    size = os.path.getsize(args.input)
    bounds = split_bounds(size, args.partitions or sc.defaultParallelism)
    counts = dict(sc.parallelize(list(enumerate(bounds)), len(bounds))
                  .map(count_split(binary, args.input, args.fmt)).collect())
    tasks, records, lines = [], 0, 0
    for i, bound in enumerate(bounds):
        count = counts[i]
        if count["ends_in_quotes"]:
            sys.exit(f"timeline_spark: split {i} of {args.input} ends inside a quoted field (a record spans the "
                     "split boundary); use fewer partitions, or a file whose records are one line each")
        split_records = count["records"] - (1 if i == 0 and args.fmt == "csv" and count["records"] else 0)
        if split_records > 0:
            tasks.append((i, bound, records + 1, lines + 1))
        records += split_records
        lines += count["lines"]
    if os.path.exists(args.output):
        sys.exit(f"timeline_spark: {args.output} already exists; remove it or name another OUTPUT")
    os.makedirs(args.output)
    pieces = sc.parallelize(tasks, max(1, len(tasks))).mapPartitions(
        convert_split(binary, args.input, args.fmt, header, args.passthrough, os.path.abspath(args.output),
                      args.format, args.partition_by))
    return pieces, records


def main(argv):
    args = parse_args(argv)
    from pyspark import SparkFiles
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("timeline").getOrCreate()
    sc = spark.sparkContext
    binary_path = os.path.abspath(args.timeline) if os.path.exists(args.timeline) else shutil.which(args.timeline)
    if not binary_path:
        sys.exit(f"timeline_spark: no timeline binary at {args.timeline!r}; build it (swift build -c release) and pass --timeline")
    sc.addFile(binary_path)
    name = os.path.basename(binary_path)

    def binary():
        path = SparkFiles.get(name)
        if not os.access(path, os.X_OK):
            os.chmod(path, 0o755)
        return path

    if os.path.isfile(args.input):
        pieces, total = run_splits(sc, args, binary)
    else:
        pieces, total, converted = run_piped(spark, sc, args, binary, binary_path)
    shuffled = sc.accumulator(0)

    def count(piece):
        shuffled.add(os.path.getsize(piece[1]) if isinstance(piece[1], str) else len(piece[1]))
        return piece

    # Each partition of the facts on its own executor (16 of them: the state's partition count).
    finished = pieces.map(count).partitionBy(16, lambda p: p).mapPartitionsWithIndex(finish_partition(binary)).collect()

    work = tempfile.mkdtemp(prefix="timeline-spark-states-")
    try:
        paths = []
        for i, state in enumerate(finished):
            paths.append(os.path.join(work, f"finished-{i:02d}.state"))
            with open(paths[-1], "wb") as f:
                f.write(state)
        report = subprocess.run([binary_path, "validate", "--merge", *paths, "--report", args.report_format, "--fail-on", "never"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if report.returncode != 0:
            sys.exit(f"timeline_spark: merging the validation states failed:\n{report.stderr.decode('utf-8', 'replace')}")
        destination = args.report or os.path.join(args.output, "_validation." + ("txt" if args.report_format == "text" else "json"))
        with open(destination, "wb") as f:
            f.write(report.stdout)
        shutil.rmtree(os.path.join(args.output, "_pieces"), ignore_errors=True)
        with open(os.path.join(args.output, "_SUCCESS"), "w"):
            pass
        print(f"timeline_spark: {total} records; validation facts shuffled {shuffled.value} bytes, "
              f"finished states on the driver {sum(len(s) for s in finished)} bytes; report in {destination}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
