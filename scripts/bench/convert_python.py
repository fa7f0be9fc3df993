"""Peer for scripts/bench-convert: the same normalisation with the csv and datetime modules."""
import csv
import datetime as dt
import json
import sys
import zoneinfo

shanghai = zoneinfo.ZoneInfo("Asia/Shanghai")
utc = dt.timezone.utc
with open(sys.argv[1], newline="") as f, open(sys.argv[2], "w") as out:
    for row in csv.DictReader(f):
        t = dt.datetime.fromisoformat(row["time"].replace("Z", "+00:00"))
        if t.tzinfo is None:
            t = t.replace(tzinfo=shanghai)
        row["time"] = t.astimezone(utc).isoformat()
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
