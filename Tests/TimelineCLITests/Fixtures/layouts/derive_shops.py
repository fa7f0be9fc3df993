#!/usr/bin/env python3
"""Derive expected/<service>.json for the shop/marketplace order samples in shops/.

Standard library only (csv, json, datetime, zoneinfo, decimal, zipfile, xml.etree).
Run from anywhere:  python3 derive_shops.py
It never uses the timeline tool; every expected value is computed here from the
sample files and the per-service rules written in SPECS below (the rules are the
ones documented in INDEX-shops.md).

Conventions (also in INDEX-shops.md):
  * "row" in placeholders is the 1-based data-row number (header and report
    framing lines are not counted).
  * instants: local wall time + assume_zone -> UTC "YYYY-MM-DDTHH:MM:SSZ"
    (fractional seconds are dropped); date-only values stay "YYYY-MM-DD";
    a row whose start cell is a placeholder gets null.
  * amounts: the row's total, quantized to 2 decimals, signed as the exporting
    party sees money move: "-" = buyer paid out (buyer history),
    "+" = seller received (seller reports); zero is written "0.00".
  * placeholders are listed for the start column, the other time columns and
    the amount column only.
"""
import csv
import io
import json
import os
import re
import sys
import zipfile
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from decimal import Decimal, ROUND_HALF_UP
from zoneinfo import ZoneInfo

from derivelib import HERE, utc_text, write_expected
PLACEHOLDER_WORDS = {"", "null", "Not Available", "Not Applicable", "-", "--", "N/A"}

SPECS = {
    "amazon": dict(
        file="shops/amazon.csv", reader="csv", encoding="utf-8-sig",
        assume_zone=None, start="Order Date", others=["Ship Date"],
        time_formats=["%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%M:%S.%fZ"], date_only=False, values_are_utc=True,
        amount="Total Owed", sign=-1, currency_col="Currency", currency=None,
        status="Order Status", id="Order ID"),
    "ebay": dict(
        file="shops/ebay.csv", reader="ebay", encoding="utf-8-sig",
        assume_zone="America/Los_Angeles", start="Sale Date",
        others=["Paid On Date", "Ship By Date", "Minimum Estimated Delivery Date",
                "Maximum Estimated Delivery Date", "Shipped On Date"],
        time_formats=["%b-%d-%y"], date_only=True,
        amount="Total Price", sign=+1, currency_col=None, currency="USD",
        status=None, id="Order Number"),
    "etsy": dict(
        file="shops/etsy.csv", reader="csv", encoding="utf-8-sig",
        assume_zone="America/New_York", start="Sale Date", others=["Date Shipped"],
        time_formats=["%m/%d/%y"], date_only=True,
        amount="Order Total", sign=+1, currency_col="Currency", currency=None,
        status="Status", id="Order ID"),
    "taobao": dict(
        file="shops/taobao.csv", reader="csv", encoding="utf-8-sig",
        assume_zone="Asia/Shanghai", start="订单创建时间",
        others=["订单付款时间 ", "发货时间", "确认收货时间"],
        time_formats=["%Y-%m-%d %H:%M:%S"], date_only=False,
        amount="买家实际支付金额", sign=+1, currency_col=None, currency="CNY",
        status="订单状态", id="订单编号"),
    "jd": dict(
        file="shops/jd.csv", reader="csv", encoding="utf-8-sig",
        assume_zone="Asia/Shanghai", start="下单时间", others=["付款确认时间", "订单完成时间"],
        time_formats=["%Y-%m-%d %H:%M:%S"], date_only=False,
        amount="应付金额", sign=+1, currency_col=None, currency="CNY",
        status="订单状态", id="订单号"),
    "shopee": dict(
        file="shops/shopee.xlsx", reader="xlsx", encoding=None,
        assume_zone="Asia/Manila", start="Order Creation Date",
        others=["Order Paid Time", "Ship Time", "Estimated Ship Out Date", "Order Complete Time"],
        time_formats=["%Y-%m-%d %H:%M"], date_only=False,
        amount="Grand Total", sign=+1, currency_col=None, currency="PHP",
        status="Order Status", id="Order ID"),
    "woocommerce": dict(
        file="shops/woocommerce.csv", reader="csv", encoding="utf-8-sig",
        assume_zone="America/New_York", start="Date", others=[],
        time_formats=["%Y-%m-%d %H:%M:%S"], date_only=False,
        amount="Net Sales", sign=+1, currency_col=None, currency="USD",
        status="Status", id="Order #"),
}


def unwrap_excel_text(v):
    """Taobao-style ="123" cells (Excel formula used to keep long digit strings)."""
    if v.startswith('="') and v.endswith('"'):
        return v[2:-1]
    return v


def read_csv_rows(path, encoding):
    with open(path, encoding=encoding, newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    out = []
    for r in rows[1:]:
        if not any(c.strip() for c in r):
            continue
        r = r + [""] * (len(header) - len(r))
        out.append({h: unwrap_excel_text(v) for h, v in zip(header, r)})
    return header, out


def read_ebay_rows(path, encoding):
    """eBay Orders report: comma-only line, header, comma-only padding line,
    data rows, then footer lines ("N,record(s) downloaded,..." / "Seller ID : ...")."""
    with open(path, encoding=encoding, newline="") as f:
        rows = list(csv.reader(f))
    hidx = next(i for i, r in enumerate(rows) if "Order Number" in r)
    header = rows[hidx]
    on = header.index("Order Number")
    srn = header.index("Sales Record Number")
    out = []
    for r in rows[hidx + 1:]:
        if len(r) <= on or not re.search(r"\d", r[on]) or not r[srn].strip().isdigit():
            continue  # padding row, footer rows
        out.append(dict(zip(header, r)))
    return header, out


def read_xlsx_rows(path):
    ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
    z = zipfile.ZipFile(path)
    shared = []
    if "xl/sharedStrings.xml" in z.namelist():
        root = ET.fromstring(z.read("xl/sharedStrings.xml"))
        for si in root.findall("m:si", ns):
            shared.append("".join(t.text or "" for t in si.iter("{%s}t" % ns["m"])))
    sheet = ET.fromstring(z.read("xl/worksheets/sheet1.xml"))

    def col_index(ref):
        letters = re.match(r"[A-Z]+", ref).group()
        n = 0
        for ch in letters:
            n = n * 26 + (ord(ch) - 64)
        return n - 1

    grid = []
    for row in sheet.iter("{%s}row" % ns["m"]):
        cells = {}
        for c in row.findall("m:c", ns):
            t = c.get("t")
            if t == "inlineStr":
                val = "".join(x.text or "" for x in c.iter("{%s}t" % ns["m"]))
            else:
                v = c.find("m:v", ns)
                val = "" if v is None else (shared[int(v.text)] if t == "s" else v.text)
            cells[col_index(c.get("r"))] = val
        grid.append(cells)
    width = max(max(r) for r in grid if r) + 1
    header = [grid[0].get(i, "") for i in range(width)]
    out = [{header[i]: r.get(i, "") for i in range(width)} for r in grid[1:]]
    return header, out


def is_placeholder(v):
    return v.strip() in PLACEHOLDER_WORDS


def parse_time(v, spec):
    for fmt in spec["time_formats"]:
        try:
            dt = datetime.strptime(v.strip(), fmt)
        except ValueError:
            continue
        if spec["date_only"]:
            return dt.strftime("%Y-%m-%d")
        if spec.get("values_are_utc"):
            dt = dt.replace(tzinfo=timezone.utc)
        else:
            dt = dt.replace(tzinfo=ZoneInfo(spec["assume_zone"]))
        return utc_text(dt.astimezone(timezone.utc))
    raise ValueError("unparseable time %r" % v)


def parse_amount(v):
    s = v.strip().strip("'")          # Amazon writes some discounts as '-0.68'
    s = s.replace("$", "").replace("元", "").replace(",", "").strip()
    return Decimal(s).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def fmt_amount(d):
    if d == 0:
        return "0.00"
    return ("+" if d > 0 else "-") + str(abs(d))


def derive(name, spec):
    path = os.path.join(HERE, spec["file"])
    if spec["reader"] == "csv":
        header, rows = read_csv_rows(path, spec["encoding"])
    elif spec["reader"] == "ebay":
        header, rows = read_ebay_rows(path, spec["encoding"])
    else:
        header, rows = read_xlsx_rows(path)
    for col in [spec["start"], spec["amount"], spec["id"]] + spec["others"]:
        if col not in header:
            raise SystemExit("%s: column %r missing" % (name, col))

    instants, amounts, currencies, statuses, ids, placeholders = [], [], [], [], [], []
    for n, row in enumerate(rows, start=1):
        for col in [spec["start"]] + spec["others"] + [spec["amount"]]:
            v = row[col]
            if is_placeholder(v):
                placeholders.append({"row": n, "column": col, "value": v})
        sv = row[spec["start"]]
        instants.append(None if is_placeholder(sv) else parse_time(sv, spec))
        for col in spec["others"]:           # validate: every non-placeholder time parses
            if not is_placeholder(row[col]):
                parse_time(row[col], spec)
        av = row[spec["amount"]]
        amounts.append(None if is_placeholder(av) else fmt_amount(parse_amount(av) * spec["sign"]))
        currencies.append(row[spec["currency_col"]] if spec["currency_col"] else spec["currency"])
        statuses.append(row[spec["status"]] if spec["status"] else None)
        ids.append(row[spec["id"]])

    present = [i for i in instants if i is not None]
    return {
        "file": spec["file"],
        "assume_zone": spec["assume_zone"],
        "start_field": spec["start"],
        "other_time_fields": spec["others"],
        "events": len(rows),
        "first_instant": min(present) if present else None,
        "last_instant": max(present) if present else None,
        "instants": instants,
        "amounts": amounts,
        "currencies": currencies,
        "statuses": statuses,
        "series": None,
        "ids": ids,
        "placeholders": placeholders,
    }


def main():
    outdir = os.path.join(HERE, "expected")
    os.makedirs(outdir, exist_ok=True)
    only = set(sys.argv[1:])
    for name, spec in SPECS.items():
        if only and name not in only:
            continue
        result = derive(name, spec)
        write_expected(os.path.join(outdir, name + ".json"), result)
        print("%-12s events=%d first=%s last=%s placeholders=%d"
              % (name, result["events"], result["first_instant"], result["last_instant"], len(result["placeholders"])))


if __name__ == "__main__":
    main()
