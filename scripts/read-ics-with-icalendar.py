#!/usr/bin/env python3
"""Reads an ICS file with the independent Python `icalendar` package and prints one JSON
object per VEVENT: uid, start/end (UTC RFC 3339 for date-times, YYYY-MM-DD for dates),
summary, description, location, categories. Used by the tests to check our ICS output.

Usage: read-ics-with-icalendar.py FILE
"""
import datetime as dt
import json
import sys

import icalendar


def when(prop):
    if prop is None:
        return None
    v = prop.dt
    if isinstance(v, dt.datetime):
        if v.tzinfo is None:
            return "floating " + v.isoformat()
        return v.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return v.isoformat()


with open(sys.argv[1], "rb") as f:
    calendar = icalendar.Calendar.from_ical(f.read())
for event in calendar.walk("VEVENT"):
    categories = []
    for c in event.get("CATEGORIES", []) if isinstance(event.get("CATEGORIES"), list) else [event.get("CATEGORIES")]:
        if c is not None:
            categories += [str(x) for x in c.cats]
    print(json.dumps({
        "uid": str(event.get("UID")),
        "start": when(event.get("DTSTART")),
        "end": when(event.get("DTEND")),
        "summary": str(event.get("SUMMARY", "")),
        "description": str(event.get("DESCRIPTION")) if event.get("DESCRIPTION") is not None else None,
        "location": str(event.get("LOCATION")) if event.get("LOCATION") is not None else None,
        "categories": categories,
    }, ensure_ascii=False))
