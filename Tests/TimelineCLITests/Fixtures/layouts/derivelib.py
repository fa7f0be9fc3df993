"""What the derive_*.py scripts share: UTC instants as the expected files write them, and
writing an expected file. Python's standard library only."""
import json
import os
from datetime import timezone

HERE = os.path.dirname(os.path.abspath(__file__))
UTC = timezone.utc


def utc_text(dt):
    """RFC 3339 in UTC with Z, the fraction of a second as written (none when zero)."""
    text = dt.strftime("%Y-%m-%dT%H:%M:%S")
    if dt.microsecond:
        text += ("." + f"{dt.microsecond:06d}").rstrip("0")
    return text + "Z"


def utc_str(dt):
    """An aware datetime as `utc_text` in UTC."""
    assert dt.tzinfo is not None, dt
    return utc_text(dt.astimezone(UTC))


def write_expected(path, result):
    """Writes `result` as expected/….json: UTF-8, two-space indents, a final line end."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=2, ensure_ascii=False)
        fh.write("\n")


def write_records(service, rel_file, assume_zone, records_path, start_field,
                  instants_dt, titles, series=None, ids=None, statuses=None, amounts=None):
    """The expected file of a layout whose records each have one aware start."""
    instants = [utc_str(d) for d in instants_dt]
    out = {
        "file": rel_file,
        "assume_zone": assume_zone,
        "records_path": records_path,
        "start_field": start_field,
        "events": len(instants),
        "first_instant": utc_str(min(instants_dt)),
        "last_instant": utc_str(max(instants_dt)),
        "instants": instants,
        "titles": titles,
        "series": series,
        "ids": ids,
        "amounts": amounts,
        "statuses": statuses,
    }
    for key in ("titles", "ids", "statuses", "amounts"):
        if out[key] is not None:
            assert len(out[key]) == len(instants), (service, key)
    write_expected(os.path.join(HERE, "expected", f"{service}.json"), out)
    print(f"wrote expected/{service}.json  ({len(instants)} records)")
