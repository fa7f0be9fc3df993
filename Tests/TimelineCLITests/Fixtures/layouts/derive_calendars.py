#!/usr/bin/env python3
"""Derive expected/<service>.json for the calendar samples in calendars/.

Uses the `icalendar` package (pip install icalendar) plus the standard
library.  One record per VEVENT in file order; nothing is expanded (an RRULE
master counts once, a RECURRENCE-ID override is its own VEVENT).

Each TZID-bearing DTSTART is resolved twice and the results must agree:
  1. icalendar's own decoding (it builds the zone from the file's VTIMEZONE
     or, for IANA names, from zoneinfo);
  2. an explicit IANA zone: the TZID itself when it is an IANA name, or the
     CLDR windowsZones mapping for Windows names.
All-day starts are reported as "YYYY-MM-DD".  For first/last ordering an
all-day date counts as 00:00 UTC of that day; the samples are built so an
all-day event is never first or last, and the script asserts that.

Run:  python3 derive_calendars.py        (from any directory)
"""
import json
import os
from datetime import date, datetime, timezone
from zoneinfo import ZoneInfo

import icalendar

from derivelib import HERE, UTC, utc_text, write_expected

# CLDR windowsZones.xml, territory "001" entries for the names used here.
WINDOWS_TO_IANA = {
    "W. Europe Standard Time": "Europe/Berlin",
    "China Standard Time": "Asia/Shanghai",
}


def start_of(ev):
    prop = ev["DTSTART"]
    value = ev.decoded("DTSTART")
    if isinstance(value, datetime):
        assert value.tzinfo is not None, "floating time not expected in samples"
        tzid = prop.params.get("TZID")
        if tzid:
            iana = WINDOWS_TO_IANA.get(tzid, tzid)
            independent = value.replace(tzinfo=None).replace(tzinfo=ZoneInfo(iana))
            assert independent == value, (tzid, value, independent)
        return value
    assert isinstance(value, date)
    return value


def fmt(value):
    if isinstance(value, datetime):
        return utc_text(value.astimezone(UTC))
    return value.isoformat()


def order_key(value):
    if isinstance(value, datetime):
        return value.astimezone(UTC)
    return datetime(value.year, value.month, value.day, tzinfo=UTC)


def derive(service, rel):
    with open(os.path.join(HERE, rel), "rb") as fh:
        cal = icalendar.Calendar.from_ical(fh.read())
    starts, titles, ids, statuses = [], [], [], []
    for ev in cal.walk("VEVENT"):
        starts.append(start_of(ev))
        titles.append(str(ev.get("SUMMARY")))
        ids.append(str(ev.get("UID")))
        statuses.append(str(ev.get("STATUS")) if ev.get("STATUS") is not None else None)
    first = min(starts, key=order_key)
    last = max(starts, key=order_key)
    assert isinstance(first, datetime) and isinstance(last, datetime), \
        "sample must not start or end with an all-day event"
    out = {
        "file": rel,
        "assume_zone": None,
        "records_path": None,
        "start_field": "DTSTART",
        "events": len(starts),
        "first_instant": fmt(first),
        "last_instant": fmt(last),
        "instants": [fmt(s) for s in starts],
        "titles": titles,
        "series": None,
        "ids": ids,
        "amounts": None,
        "statuses": statuses,
    }
    write_expected(os.path.join(HERE, "expected", f"{service}.json"), out)
    print(f"wrote expected/{service}.json  ({len(starts)} records)")


if __name__ == "__main__":
    derive("google_calendar", "calendars/google_calendar.ics")
    derive("outlook_exchange", "calendars/outlook_exchange.ics")
