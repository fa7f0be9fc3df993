#!/usr/bin/env python3
"""Reads a Parquet file written by `timeline convert --to parquet` with independent engines
(pyarrow, DuckDB, polars; Spark with --spark) and compares every value of every row with the
NDJSON that `--to ndjson --fields` gives for the same columns, field by field: instants and
wall times as integer nanoseconds, dates as days, offsets as seconds, amounts as exact
decimals, lists, maps. The NDJSON side is parsed here with the standard library only.

  parquet-oracle.py compare FILE.parquet FILE.ndjson [MORE.parquet MORE.ndjson ...]
                    [--engines pyarrow,duckdb,polars]   # pairs share one engine start-up
  parquet-oracle.py columns                     # every column, for `--fields`
  parquet-oracle.py metadata FILE.parquet      # encodings, codecs and statistics as JSON
  parquet-oracle.py partitions DIR ZONE        # a --partition-by directory, checked

Exit 0 when every engine gives every value; else the first differences, and exit 1.
"""
import calendar
import datetime
import json
import sys
from decimal import Decimal

EPOCH_ORDINAL = datetime.date(1970, 1, 1).toordinal()

# Every column of the canonical schema, in the file's order (the NDJSON side is written with
# `--fields` these).
COLUMNS = (["id", "title", "detail", "status", "category", "location", "series"]
           + [f"{t}.{p}" for t in ("start", "end", "recorded")
              for p in ("instant", "local", "offset", "zone", "basis", "date", "raw")]
           + ["amount.value", "amount.currency", "amount.neutral", "links", "tags",
              "attributes", "source.format", "source.file", "source.record", "source.line"])


def nanos(text, utc):
    """'2024-06-11T15:42:10.5Z' (or a wall time without Z) as nanoseconds since 1970."""
    if utc:
        assert text.endswith("Z"), text
        text = text[:-1]
    day, clock = text.split("T")
    y, m, d = (int(p) for p in day.split("-"))
    whole, _, fraction = clock.partition(".")
    hh, mm, ss = (int(p) for p in whole.split(":"))
    seconds = calendar.timegm((y, m, d, hh, mm, ss, 0, 0, 0))
    return seconds * 1_000_000_000 + int((fraction + "000000000")[:9])


def offset_seconds(text):
    sign = -1 if text[0] == "-" else 1
    parts = [int(p) for p in text[1:].split(":")]
    parts += [0] * (3 - len(parts))
    return sign * (parts[0] * 3600 + parts[1] * 60 + parts[2])


def converter(name):
    """How an NDJSON value of column `name` becomes its comparison form (None for as is)."""
    leaf = name.split(".")[-1]
    if name.startswith(("start.", "end.", "recorded.")):
        return {"instant": lambda v: nanos(v, True), "local": lambda v: nanos(v, False),
                "offset": offset_seconds,
                "date": lambda v: datetime.date.fromisoformat(v).toordinal() - EPOCH_ORDINAL,
                }.get(leaf)
    if name == "amount.value":
        return Decimal
    if name == "attributes":
        return lambda v: sorted(v.items())
    return None


def expected(name, values):
    convert = converter(name)
    if convert is None:
        return values
    return [None if v is None else convert(v) for v in values]


def rows_pyarrow(path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pq.read_table(path)
    columns = {}
    for name in table.column_names:
        col = table.column(name)
        if pa.types.is_timestamp(col.type):
            col = col.cast(pa.int64())
        elif pa.types.is_date32(col.type):
            col = col.cast(pa.int32())
        values = col.to_pylist()
        if pa.types.is_map(table.schema.field(name).type):
            values = [sorted(v) if v is not None else None for v in values]
        columns[name] = values
    return table.column_names, columns


def rows_duckdb(path):
    import duckdb
    con = duckdb.connect()
    described = con.execute(f"DESCRIBE SELECT * FROM read_parquet('{path}')").fetchall()
    select = []
    for name, kind, *_ in described:
        quoted = '"' + name.replace('"', '""') + '"'
        if kind.startswith("TIMESTAMP"):
            select.append(f"epoch_ns({quoted}) AS {quoted}")
        elif kind == "DATE":
            select.append(f"{quoted} - DATE '1970-01-01' AS {quoted}")
        else:
            select.append(quoted)
    table = con.sql(f"SELECT {', '.join(select)} FROM read_parquet('{path}')").to_arrow_table()
    columns = {}
    for (name, kind, *_) in described:
        values = table.column(name).to_pylist()
        if kind.startswith("MAP"):
            values = [sorted(v if isinstance(v, list) else v.items()) if v is not None else None
                      for v in values]
        columns[name] = values
    return [d[0] for d in described], columns


def rows_polars(path):
    import polars as pl
    frame = pl.read_parquet(path)
    columns = {}
    for name, dtype in frame.schema.items():
        series = frame[name]
        if dtype.base_type() == pl.Datetime:
            series = series.dt.epoch("ns")
        elif dtype == pl.Date:
            series = series.cast(pl.Int32)
        values = series.to_list()
        if name == "attributes":
            values = [sorted(v.items() if isinstance(v, dict) else ((kv["key"], kv["value"]) for kv in v))
                      if v is not None else None for v in values]
        columns[name] = values
    return list(frame.columns), columns


def rows_spark(path):
    """Spark reads TIMESTAMP(NANOS) only as its nanoseconds (a long), with
    spark.sql.legacy.parquet.nanosAsLong; dates as days."""
    from pyspark.sql import SparkSession, functions as F
    spark = (SparkSession.builder.master("local[1]").appName("parquet-oracle")
             .config("spark.ui.enabled", "false")
             .config("spark.sql.legacy.parquet.nanosAsLong", "true").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    frame = spark.read.parquet(path)
    select = [F.unix_date(F.col(f"`{f.name}`")).alias(f.name) if f.dataType.typeName() == "date"
              else F.col(f"`{f.name}`").alias(f.name) for f in frame.schema.fields]
    rows = frame.select(*select).collect()
    names = frame.columns
    columns = {n: [] for n in names}
    for row in rows:
        for n in names:
            v = row[n]
            if n == "attributes" and v is not None:
                v = sorted(v.items())
            columns[n].append(v)
    return names, columns


ENGINES = {"pyarrow": rows_pyarrow, "duckdb": rows_duckdb, "polars": rows_polars, "spark": rows_spark}
# Engines that read TIMESTAMP(NANOS) at microseconds.
MICROS = set()


def compare(parquet, ndjson, engines):
    with open(ndjson, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    names = list(records[0].keys()) if records else []
    wanted = {name: expected(name, [r[name] for r in records]) for name in names}
    failures = []
    for engine in engines:
        got_names, columns = ENGINES[engine](parquet)
        if records and got_names != names:
            failures.append(f"{engine}: columns {got_names} != {names}")
            continue
        for name in names:
            want = wanted[name]
            if engine in MICROS and name.split(".")[-1] in ("instant", "local"):
                want = [w // 1000 if w is not None else None for w in want]
            got = columns[name]
            if name == "attributes":
                got = [[list(kv) for kv in v] if v is not None else None for v in got]
                want = [[list(kv) for kv in v] if v is not None else None for v in want]
            if got == want:
                continue
            if len(got) != len(want):
                failures.append(f"{engine}: {name}: {len(got)} values, {len(want)} records")
                continue
            i = next(i for i in range(len(want)) if got[i] != want[i])
            failures.append(f"{engine}: row {i + 1} {name}: {got[i]!r} != {want[i]!r} "
                            f"(NDJSON {records[i][name]!r})")
    for f in failures[:20]:
        print(f, file=sys.stderr)
    print(json.dumps({"rows": len(records), "columns": len(names), "engines": engines,
                      "failures": len(failures)}))
    return not failures


def statistic(logical, raw):
    """A statistic as pyarrow shows it (a timestamp as a datetime), else its raw value: a
    nanosecond timestamp a datetime cannot hold needs pandas to be shown, which the tests do
    not install."""
    try:
        return str(logical())
    except ValueError:
        return str(raw)


def metadata(parquet):
    import pyarrow.parquet as pq
    meta = pq.ParquetFile(parquet).metadata
    out = {"rows": meta.num_rows, "row_groups": meta.num_row_groups, "columns": {}}
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        for c in range(group.num_columns):
            col = group.column(c)
            entry = out["columns"].setdefault(col.path_in_schema, {
                "encodings": sorted(col.encodings), "compression": col.compression,
                "dictionary": col.has_dictionary_page, "statistics": []})
            if col.is_stats_set and col.statistics.has_min_max:
                stats = col.statistics
                entry["statistics"].append([
                    statistic(lambda: stats.min, stats.min_raw),
                    statistic(lambda: stats.max, stats.max_raw), stats.null_count])
    print(json.dumps(out, indent=1, sort_keys=True))
    return True


def partitions(directory, zone_name):
    """Every row of every part (Parquet, NDJSON or CSV) lies in its directory's day or month:
    its start's date in ZONE by Python's zoneinfo (an all-day start: its own date). DuckDB's
    and pyarrow's Hive discovery then find every row. Prints the partitions and row counts."""
    import csv
    import os
    import zoneinfo
    zone = zoneinfo.ZoneInfo(zone_name)
    counts = {}
    for key in sorted(os.listdir(directory)):
        name, _, value = key.partition("=")
        assert name in ("day", "month") and value, key
        for part in sorted(os.listdir(os.path.join(directory, key))):
            path = os.path.join(directory, key, part)
            if part.endswith(".parquet"):
                import pyarrow.parquet as pq
                table = pq.read_table(path)
                starts = [(i.isoformat() if i else None, d.isoformat() if d else None)
                          for i, d in zip(table.column("start.instant").to_pylist(),
                                          table.column("start.date").to_pylist())]
            elif part.endswith(".ndjson"):
                with open(path, encoding="utf-8") as f:
                    events = [json.loads(line) for line in f]
                starts = [(e["start"].get("instant"), e["start"].get("date")) for e in events]
            else:
                with open(path, encoding="utf-8", newline="") as f:
                    rows = list(csv.DictReader(f, delimiter="\t" if part.endswith(".tsv") else ","))
                starts = [(r["start"] if "T" in r["start"] else None,
                           r["start"] if "T" not in r["start"] else None) for r in rows]
            for instant, date in starts:
                if date is None:
                    moment = datetime.datetime.fromisoformat(instant.replace("Z", "+00:00"))
                    date = moment.astimezone(zone).date().isoformat()
                want = date if name == "day" else date[:7]
                assert want == value, f"{path}: a start on {date} in {zone_name} is not in {key}"
            counts[key] = counts.get(key, 0) + len(starts)
    total = sum(counts.values())
    parquet = [k for k in counts if any(p.endswith(".parquet") for p in os.listdir(os.path.join(directory, k)))]
    if parquet:
        import duckdb
        import pyarrow.dataset as ds
        found = duckdb.sql(f"SELECT count(*) FROM read_parquet('{directory}/*/*.parquet', hive_partitioning = true)").fetchall()[0][0]
        assert found == total, (found, total)
        assert ds.dataset(directory, format="parquet", partitioning="hive").count_rows() == total
    print(json.dumps(counts))
    return True


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    if args[0] == "partitions":
        ok = partitions(args[1], args[2])
    elif args[0] == "metadata":
        ok = metadata(args[1])
    elif args[0] == "columns":
        print(",".join(COLUMNS))
        ok = True
    else:
        engines = ["pyarrow", "duckdb", "polars"]
        if "--engines" in args:
            at = args.index("--engines")
            engines = args[at + 1].split(",")
            args = args[:at] + args[at + 2:]
        files = args[1:]
        if not files or len(files) % 2:
            sys.exit(__doc__)
        ok = True
        for parquet, ndjson in zip(files[::2], files[1::2]):
            ok = compare(parquet, ndjson, engines) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
