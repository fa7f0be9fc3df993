#!/usr/bin/env python3
"""Derive expected/<service>.json for the personal-data samples in personal/.

Standard library only (json, csv, datetime, zoneinfo).

Run:  python3 derive_personal.py        (from any directory)
"""
import csv
import json
import os
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from derivelib import HERE, UTC, utc_str, write_records as write






# --------------------------------------------------------------------------
# Google Maps Timeline, on-device export (Timeline.json): semanticSegments[].
# startTime is ISO-8601 with the local offset and milliseconds.  Visit and
# activity segments also carry startTimeTimezoneUtcOffsetMinutes, which must
# agree with the offset in startTime; timelinePath segments do not carry it.
# Title: visit -> topCandidate.semanticType, activity -> topCandidate.type,
# timelinePath segment -> the literal "timelinePath".
# --------------------------------------------------------------------------
def google_timeline():
    rel = "personal/google_timeline.json"
    with open(os.path.join(HERE, rel), encoding="utf-8") as fh:
        doc = json.load(fh)
    inst, titles = [], []
    for seg in doc["semanticSegments"]:
        start = datetime.fromisoformat(seg["startTime"])
        assert start.tzinfo is not None
        if "startTimeTimezoneUtcOffsetMinutes" in seg:
            assert start.utcoffset() == timedelta(
                minutes=seg["startTimeTimezoneUtcOffsetMinutes"]), seg
        inst.append(start)
        if "visit" in seg:
            titles.append(seg["visit"]["topCandidate"]["semanticType"])
        elif "activity" in seg:
            titles.append(seg["activity"]["topCandidate"]["type"])
        elif "timelinePath" in seg:
            titles.append("timelinePath")
        else:
            raise ValueError(seg)
    write("google_timeline", rel, None, "semanticSegments", "startTime",
          inst, titles)


# --------------------------------------------------------------------------
# Strava bulk export activities.csv: "Activity Date" like
# "Jun 12, 2024, 4:15:22 AM" with no zone; Strava writes it in UTC
# (geo-activity-playground's importer attaches UTC).  Column names repeat
# (Elapsed Time, Distance, Max Heart Rate, Relative Effort, Commute), so
# rows are read positionally.
# --------------------------------------------------------------------------
def strava():
    rel = "personal/strava_activities.csv"
    zone_name = "Etc/UTC"
    zone = ZoneInfo(zone_name)
    with open(os.path.join(HERE, rel), encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    header, body = rows[0], rows[1:]
    assert header.count("Distance") == 2 and header.count("Elapsed Time") == 2
    i_id = header.index("Activity ID")
    i_date = header.index("Activity Date")
    i_name = header.index("Activity Name")
    inst, titles, ids = [], [], []
    for r in body:
        assert len(r) == len(header)
        naive = datetime.strptime(r[i_date], "%b %d, %Y, %I:%M:%S %p")
        inst.append(naive.replace(tzinfo=zone))
        titles.append(r[i_name])
        ids.append(r[i_id])
    write("strava", rel, zone_name, None, "Activity Date", inst, titles, ids=ids)


# --------------------------------------------------------------------------
# Apple Health export.xml converted by tdda/applehealthdata (Workout.csv):
# startDate like "2024-06-10 06:20:03 +0200"; creationDate (first date
# column) is when the sample was saved, not the moment.  The converter
# quotes every string and escapes '"' with a backslash.
# --------------------------------------------------------------------------
def apple_health():
    rel = "personal/apple_health_workouts.csv"
    with open(os.path.join(HERE, rel), encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh, doublequote=False, escapechar="\\"))
    header, body = rows[0], rows[1:]
    i_start = header.index("startDate")
    i_type = header.index("workoutActivityType")
    inst, titles = [], []
    for r in body:
        assert len(r) == len(header)
        inst.append(datetime.strptime(r[i_start], "%Y-%m-%d %H:%M:%S %z"))
        titles.append(r[i_type])
    write("apple_health", rel, None, None, "startDate", inst, titles)


if __name__ == "__main__":
    google_timeline()
    strava()
    apple_health()
