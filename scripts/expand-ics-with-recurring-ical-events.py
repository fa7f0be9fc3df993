#!/usr/bin/env python3
"""Prints the occurrences Python's recurring_ical_events finds in an ICS file between two
dates, one per line: the start as a UTC instant (RFC 3339, `Z`) or a date, a tab, the
summary. Exits 2 when the library cannot read the calendar. An independent oracle for
`timeline convert --expand` (installed by scripts/install-test-deps).

  scripts/expand-ics-with-recurring-ical-events.py FILE FROM UNTIL    (dates YYYY-MM-DD)
"""
import datetime
import sys

import icalendar
import recurring_ical_events


def main():
    path, start, end = sys.argv[1:4]
    calendar = icalendar.Calendar.from_ical(open(path, "rb").read())
    bounds = [tuple(int(p) for p in d.split("-")) for d in (start, end)]
    try:
        events = recurring_ical_events.of(calendar).between(*bounds)
    except Exception as error:  # the library refuses the calendar: say so, exit 2
        print(f"unreadable: {error}", file=sys.stderr)
        sys.exit(2)
    rows = []
    for event in events:
        value = event["DTSTART"].dt
        if isinstance(value, datetime.datetime):
            text = value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        else:
            text = value.isoformat()
        rows.append((text, str(event.get("SUMMARY", ""))))
    for text, summary in sorted(rows):
        print(f"{text}\t{summary}")


main()
