#!/usr/bin/env python3
"""Derive expected/<service>.json for the carrier samples in carriers/.

Standard library only (json, datetime, zoneinfo).  Every instant is computed
from the sample file itself; where a layout carries the same moment twice
(UPS local+offset vs gmtDate/gmtTime, USPS eventTimestamp+GMTOffset vs
GMTTimestamp) both are decoded and checked against each other, so a typo in
a sample makes this script fail instead of producing a wrong oracle.

Run:  python3 derive_carriers.py        (from any directory)
"""
import json
import os
import re
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from derivelib import HERE, UTC, utc_str, write_records as write


def load(rel):
    with open(os.path.join(HERE, rel), encoding="utf-8") as fh:
        return json.load(fh)




def parse_offset(text):
    """'+02:00' / '-07:00' -> timedelta."""
    m = re.fullmatch(r"([+-])(\d{2}):(\d{2})", text)
    assert m, f"bad offset {text!r}"
    delta = timedelta(hours=int(m.group(2)), minutes=int(m.group(3)))
    return delta if m.group(1) == "+" else -delta


def aware_iso(text):
    """ISO-8601 string that MUST carry Z or an explicit offset."""
    dt = datetime.fromisoformat(text.replace("Z", "+00:00"))
    assert dt.tzinfo is not None, f"no offset in {text!r}"
    return dt




# --------------------------------------------------------------------------
# DHL Shipment Tracking - Unified: events[].timestamp is local wall time with
# no offset.  Nothing in the file names a zone, so one is assumed.  All
# locations in the sample (Milan, Leipzig, Zurich) share CET/CEST rules.
# --------------------------------------------------------------------------
def dhl():
    rel = "carriers/dhl.json"
    zone_name = "Europe/Berlin"
    zone = ZoneInfo(zone_name)
    doc = load(rel)
    inst, titles, statuses, series = [], [], [], []
    for shp in doc["shipments"]:
        series.append(str(shp["id"]))
        for ev in shp["events"]:
            ts = ev["timestamp"]
            naive = datetime.fromisoformat(ts)
            assert naive.tzinfo is None, "sample is meant to be offset-free"
            inst.append(naive.replace(tzinfo=zone))
            titles.append(ev["description"])
            statuses.append(ev["statusCode"])
    write("dhl", rel, zone_name, "shipments[].events", "timestamp",
          inst, titles, series, None, statuses)


# --------------------------------------------------------------------------
# FedEx Track API v1: scanEvents[].date is ISO-8601 with the scan's offset.
# --------------------------------------------------------------------------
def fedex():
    rel = "carriers/fedex.json"
    doc = load(rel)
    inst, titles, statuses, series = [], [], [], []
    for ctr in doc["output"]["completeTrackResults"]:
        series.append(ctr["trackingNumber"])
        for tr in ctr["trackResults"]:
            for ev in tr["scanEvents"]:
                inst.append(aware_iso(ev["date"]))
                titles.append(ev["eventDescription"])
                statuses.append(ev["eventType"])
    write("fedex", rel, None,
          "output.completeTrackResults[].trackResults[].scanEvents", "date",
          inst, titles, series, None, statuses)


# --------------------------------------------------------------------------
# UPS Track API: activity[].date (YYYYMMDD) + time (HHMMSS) are local,
# gmtOffset gives the offset; gmtDate (YYYYMMDD) + gmtTime (HH:MM:SS) repeat
# the moment in UTC.  Both decodings must agree.
# --------------------------------------------------------------------------
def ups():
    rel = "carriers/ups.json"
    doc = load(rel)
    inst, titles, statuses, series = [], [], [], []
    for shp in doc["trackResponse"]["shipment"]:
        for pkg in shp["package"]:
            series.append(pkg["trackingNumber"])
            for act in pkg["activity"]:
                local = datetime.strptime(act["date"] + act["time"], "%Y%m%d%H%M%S")
                off = parse_offset(act["gmtOffset"])
                from_local = local.replace(tzinfo=timezone(off))
                gmt_time = act["gmtTime"].replace(":", "").zfill(6)
                from_gmt = datetime.strptime(act["gmtDate"] + gmt_time,
                                             "%Y%m%d%H%M%S").replace(tzinfo=UTC)
                assert from_local == from_gmt, (act, from_local, from_gmt)
                inst.append(from_local)
                titles.append(act["status"]["description"])
                statuses.append(act["status"]["code"])
    write("ups", rel, None, "trackResponse.shipment[].package[].activity",
          "date+time (local, YYYYMMDD + HHMMSS) with gmtOffset; equals gmtDate+gmtTime (UTC)",
          inst, titles, series, None, statuses)


# --------------------------------------------------------------------------
# USPS Tracking v3: trackingEvents[].GMTTimestamp is UTC with seconds;
# eventTimestamp is local wall time (seconds always :00) and GMTOffset its
# offset.  The moment is GMTTimestamp; the local pair must agree to the
# minute.
# --------------------------------------------------------------------------
def usps():
    rel = "carriers/usps.json"
    doc = load(rel)
    inst, titles, statuses = [], [], []
    for ev in doc["trackingEvents"]:
        gmt = aware_iso(ev["GMTTimestamp"])
        local = datetime.fromisoformat(ev["eventTimestamp"])
        assert local.tzinfo is None
        from_local = local.replace(tzinfo=timezone(parse_offset(ev["GMTOffset"])))
        assert gmt.replace(second=0) == from_local, (ev, gmt, from_local)
        inst.append(gmt)
        titles.append(ev["eventType"])
        statuses.append(ev["eventCode"])
    write("usps", rel, None, "trackingEvents", "GMTTimestamp",
          inst, titles, [doc["trackingNumber"]], None, statuses)


# --------------------------------------------------------------------------
# AfterShip Tracking API (v4 layout): data.tracking.checkpoints[].
# checkpoint_time carries the carrier's local offset; created_at is when
# AfterShip recorded the checkpoint (UTC) and is NOT the moment.
# --------------------------------------------------------------------------
def aftership():
    rel = "carriers/aftership.json"
    doc = load(rel)
    trk = doc["data"]["tracking"]
    inst, titles, statuses = [], [], []
    for cp in trk["checkpoints"]:
        inst.append(aware_iso(cp["checkpoint_time"]))
        titles.append(cp["message"])
        statuses.append(cp["tag"])
    write("aftership", rel, None, "data.tracking.checkpoints", "checkpoint_time",
          inst, titles, [trk["tracking_number"]], None, statuses)


if __name__ == "__main__":
    dhl()
    fedex()
    ups()
    usps()
    aftership()
