#!/usr/bin/env python3
"""Writes the oracle tables the Swift tests compare against, computed with Python's stdlib
(zoneinfo with PEP 495 fold, datetime.fromisoformat) — an implementation independent of ours.

  zone-local-times.tsv: zone, local time, kind (unique|gap|overlap), fold=0 instant, fold=1 instant
  iso8601.tsv:          input, kind (instant|naive|date), UTC instant (nanoseconds exact) or local/date

Usage: scripts/oracles/generate.py OUTDIR
"""
import datetime as dt
import sys
import zoneinfo

UTC = dt.timezone.utc

LOCAL_CASES = [
    # zone, local wall time
    ("America/New_York", "2024-03-10T02:30:00"),  # spring-forward gap
    ("America/New_York", "2024-03-10T01:59:59"),
    ("America/New_York", "2024-03-10T03:00:00"),
    ("America/New_York", "2024-11-03T01:30:00"),  # fall-back overlap
    ("America/New_York", "2024-11-03T00:59:59"),
    ("America/New_York", "2024-11-03T02:00:00"),
    ("America/New_York", "1950-06-15T12:00:00"),
    ("America/New_York", "2099-07-04T09:00:00"),
    ("Europe/London", "2024-03-31T01:30:00"),
    ("Europe/London", "2024-10-27T01:30:00"),
    ("Europe/London", "2024-07-01T12:00:00"),
    ("Australia/Sydney", "2024-10-06T02:30:00"),  # southern-hemisphere gap
    ("Australia/Sydney", "2024-04-07T02:30:00"),  # southern-hemisphere overlap
    ("Australia/Sydney", "2024-01-15T09:00:00"),
    ("America/Santiago", "2024-09-08T00:30:00"),  # gap at midnight
    ("America/Santiago", "2024-04-06T23:30:00"),  # overlap before midnight
    ("America/Santiago", "2024-06-01T12:00:00"),
    ("Australia/Lord_Howe", "2024-10-06T02:15:00"),  # 30-minute gap
    ("Australia/Lord_Howe", "2024-04-07T01:45:00"),  # 30-minute overlap
    ("Asia/Shanghai", "1988-04-10T02:30:00"),  # China's DST era
    ("Asia/Shanghai", "2024-06-12T08:00:00"),
    ("Asia/Kolkata", "2024-06-12T08:00:00"),
    ("Asia/Kathmandu", "2024-06-12T08:00:00"),
    ("Pacific/Apia", "2011-12-30T12:00:00"),  # the day Samoa skipped
    ("Europe/Dublin", "2024-01-15T12:00:00"),  # negative DST in the rules
    ("Europe/Dublin", "2024-07-15T12:00:00"),
]

ISO_CASES = [
    "2024-06-12T08:00:00Z", "2024-06-12T08:00:00+08:00", "2024-06-12T08:00:00-05:30",
    "2024-06-12T08:00:00.5Z", "2024-06-12T08:00:00.123456789Z", "2024-06-12T08:00:00.000001+01:00",
    "2024-06-12 08:00:00Z", "2024-06-12T08:00Z", "2024-06-12T08Z", "2024-06-12T08:00:00+0800",
    "2024-06-12T08:00:00+08", "20240612T080000Z", "20240612T080000+0800", "20240612T0800",
    "2024-06-12T08:00:00", "2024-06-12T08:00", "2024-06-12", "20240612",
    "1969-12-31T23:59:59.999Z", "1900-01-01T00:00:00Z", "2100-12-31T23:59:59Z", "2038-01-19T03:14:08Z",
    "2024-02-29T12:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
    "2024-06-12T08:00:00,25Z", "2024-06-12t08:00:00z",
]


def iso(d):
    return f"{d.year:04d}-{d.month:02d}-{d.day:02d}T{d.hour:02d}:{d.minute:02d}:{d.second:02d}"


def local_rows():
    yield "zone\tlocal\tkind\tfold0_utc\tfold1_utc"
    for zone, text in LOCAL_CASES:
        z = zoneinfo.ZoneInfo(zone)
        local = dt.datetime.fromisoformat(text)
        d0, d1 = local.replace(tzinfo=z, fold=0), local.replace(tzinfo=z, fold=1)
        if d0.utcoffset() == d1.utcoffset():
            kind = "unique"
        elif d0.astimezone(UTC).astimezone(z).replace(tzinfo=None) == local:
            kind = "overlap"
        else:
            kind = "gap"
        # In a gap, fold=0 uses the offset before the transition: the "shift forward" instant.
        yield "\t".join([zone, text, kind, iso(d0.astimezone(UTC)) + "Z", iso(d1.astimezone(UTC)) + "Z"])


def fraction_nanos(text):
    """Nanoseconds of the fraction as written (fromisoformat keeps only microseconds)."""
    import re
    m = re.search(r"[.,](\d+)", text.split("T")[-1] if "T" in text.upper() else "")
    return int((m.group(1) + "000000000")[:9]) if m else 0


def iso_rows():
    yield "input\tkind\tvalue"
    for text in ISO_CASES:
        # Python < 3.11 rejects some forms; 3.11+ reads them all. Nanoseconds beyond
        # microseconds are carried separately because datetime stops at microseconds.
        trimmed = text
        import re
        m = re.search(r"([.,])(\d{7,9})", text)
        if m:
            trimmed = text.replace(m.group(0), m.group(1) + m.group(2)[:6])
        d = dt.datetime.fromisoformat(trimmed.replace("t", "T").replace("z", "Z"))
        if len(text) in (8, 10) and "T" not in text.upper():
            yield f"{text}\tdate\t{d.date().isoformat()}"
        elif d.tzinfo is None:
            yield f"{text}\tnaive\t{iso(d)}.{fraction_nanos(text):09d}"
        else:
            u = d.astimezone(UTC)
            yield f"{text}\tinstant\t{iso(u)}.{fraction_nanos(text):09d}Z"


def main():
    out = sys.argv[1]
    with open(f"{out}/zone-local-times.tsv", "w") as f:
        f.write("\n".join(local_rows()) + "\n")
    with open(f"{out}/iso8601.tsv", "w") as f:
        f.write("\n".join(iso_rows()) + "\n")


if __name__ == "__main__":
    main()
