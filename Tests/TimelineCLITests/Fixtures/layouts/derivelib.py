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


# What each layout's status words mean among the canonical statuses (completed: done,
# delivered, paid; processing: under way; pending: not begun, awaiting; cancelled: cancelled,
# declined, reverted, closed unpaid: no money moved; refunded: paid, then given back — and a
# row that is itself the refund is completed, as docs/canonical-format.md defines them), by
# file, from each service's documentation of its words (cited in INDEX.md). A file whose records carry no status word (USPS's events
# have only an internal `eventCode`) has none.
CANONICAL = {
    "carriers/aftership.json": {"InfoReceived": "pending", "InTransit": "processing", "OutForDelivery": "processing", "Delivered": "completed"},
    "banks/alipay.csv": {"交易成功": "completed", "退款成功": "completed", "交易关闭": "cancelled"},
    "shops/amazon.csv": {"Closed": "completed", "Cancelled": "cancelled", "Authorized": "pending", "New": "pending"},
    "carriers/dhl.json": {"pre-transit": "pending", "transit": "processing", "delivered": "completed"},
    "shops/etsy.csv": {"Completed": "completed", "Paid": "completed", "Canceled": "cancelled"},
    # FedEx's eventType, by its derivedStatus: OC label created; PU, AR, DP, OD under way; DL delivered.
    "carriers/fedex.json": {"OC": "pending", "PU": "processing", "AR": "processing", "DP": "processing", "OD": "processing", "DL": "completed"},
    "calendars/google_calendar.ics": {"CONFIRMED": "completed", "TENTATIVE": "processing", "CANCELLED": "cancelled"},
    "calendars/outlook_exchange.ics": {"CONFIRMED": "completed", "TENTATIVE": "processing", "CANCELLED": "cancelled"},
    # 等待出库: paid, waiting to leave the warehouse; (删除) marks an order the buyer removed from the list.
    "shops/jd.csv": {"完成": "completed", "等待出库": "processing", "(删除)等待出库": "processing"},
    "banks/paypal.csv": {"Completed": "completed", "Refunded": "refunded", "Pending": "pending", "Denied": "cancelled"},
    "banks/revolut.csv": {"COMPLETED": "completed", "DECLINED": "cancelled", "PENDING": "pending", "REVERTED": "cancelled"},
    "shops/shopee.xlsx": {"Completed": "completed", "Cancelled": "cancelled", "To ship": "processing"},
    "shops/taobao.csv": {"交易成功": "completed", "卖家已发货，等待买家确认": "processing", "交易关闭": "cancelled"},
    # UPS's status.code, by its status.type and description: MP label created; OR, DP, AR, OT under way; FS delivered.
    "carriers/ups.json": {"MP": "pending", "OR": "processing", "DP": "processing", "AR": "processing", "OT": "processing", "FS": "completed"},
    # Venmo: a standard transfer to a bank is Issued while it is on its way.
    "banks/venmo.csv": {"Complete": "completed", "Issued": "processing"},
    "shops/woocommerce.csv": {"completed": "completed", "processing": "processing", "refunded": "refunded"},
}


def write_expected(path, result):
    """Writes `result` as expected/….json: UTF-8, two-space indents, a final line end, with
    `canonical_statuses` from `CANONICAL`."""
    table = CANONICAL.get(result.get("file"))
    if result.get("statuses") is not None:
        result["canonical_statuses"] = [table[s] if table and s is not None else None for s in result["statuses"]]
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
