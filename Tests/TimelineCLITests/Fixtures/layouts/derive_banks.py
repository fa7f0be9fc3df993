#!/usr/bin/env python3
"""Derive expected results for the bank/payment-app statement samples.

Reads every sample under banks/ and writes expected/<service>.json.
Standard library only (csv, json, datetime, zoneinfo, decimal).  Nothing is
hand-typed into the results: every value is parsed out of the sample file with
the per-layout rules below, which are also described in INDEX-banks.md.

Run:  python3 derive_banks.py            (from any directory)
"""
import csv
import io
import json
import os
import re
from datetime import date, datetime, timezone
from decimal import Decimal
from zoneinfo import ZoneInfo

from derivelib import HERE, utc_text, write_expected
BANKS = os.path.join(HERE, "banks")
EXPECTED = os.path.join(HERE, "expected")


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------
def read_text(name, encoding="utf-8"):
    with open(os.path.join(BANKS, name), "rb") as f:
        return f.read().decode(encoding)


def header_line_of(text, predicate):
    """1-based physical line number of the first line for which predicate is true."""
    for n, line in enumerate(text.split("\n"), start=1):
        if predicate(line):
            return n
    raise ValueError("header not found")


def records_after(text, header_line):
    """csv records starting at the header line (handles quoted newlines)."""
    body = "\n".join(text.split("\n")[header_line - 1:])
    return list(csv.reader(io.StringIO(body, newline="")))


def dec(s):
    """Decimal from a bank number: strips spaces, tabs, thousands commas, '$'."""
    s = s.strip().replace(",", "").replace("$", "").replace(" ", "")
    return Decimal(s)


def fmt_amount(d):
    return format(d, "f")


def to_utc(naive, zone):
    aware = naive.replace(tzinfo=ZoneInfo(zone))
    return aware.astimezone(timezone.utc)


def iso_utc(dt):
    # schema: "YYYY-MM-DDTHH:MM:SSZ" (sub-second digits are dropped)
    return utc_text(dt)


def build(file, zone, start_field, other, header_line, rows, fees=None):
    # Where a layout splits the moment over a date column and a time-of-day
    # column (Monzo, PayPal), start_field names the date column and the
    # time-of-day column is listed first in other_time_fields.
    starts = [r["start"] for r in rows]
    if all(isinstance(s, datetime) for s in starts):
        instants = [iso_utc(s) for s in starts]
        first, last = iso_utc(min(starts)), iso_utc(max(starts))
    elif all(isinstance(s, date) and not isinstance(s, datetime) for s in starts):
        instants = [s.isoformat() for s in starts]
        first, last = min(starts).isoformat(), max(starts).isoformat()
    else:
        raise ValueError("mixed start kinds")
    out = {
        "file": "banks/" + file,
        "assume_zone": zone,
        "start_field": start_field,
        "other_time_fields": other,
        "header_line": header_line,
        "events": len(rows),
        "first_instant": first,
        "last_instant": last,
        "instants": instants,
        "amounts": [fmt_amount(r["amount"]) for r in rows],
        "currencies": [r["currency"] for r in rows],
        "statuses": [r.get("status") for r in rows],
        "moved": [r["moved"] for r in rows],
        "ids": [r.get("id") for r in rows],
    }
    if fees is not None:
        # Only for layouts that carry a separate fee column.  Signed like
        # amounts: a fee charged to the account holder is negative.
        out["fees"] = [None if f is None else fmt_amount(f) for f in fees]
    return out


# --------------------------------------------------------------------------
# Revolut: Started Date = initiated, Completed Date = settled (empty while
# PENDING / for DECLINED).  Amount signed; Fee separate and positive when
# charged.  Money moved only for State COMPLETED.
# --------------------------------------------------------------------------
def revolut():
    name, zone = "revolut.csv", "Europe/London"
    text = read_text(name)
    hl = header_line_of(text, lambda l: l.startswith("Type,Product,Started Date"))
    recs = records_after(text, hl)
    hdr, data = recs[0], [r for r in recs[1:] if r]
    rows, fees = [], []
    for r in data:
        d = dict(zip(hdr, r))
        st = datetime.strptime(d["Started Date"], "%Y-%m-%d %H:%M:%S")
        rows.append({
            "start": to_utc(st, zone),
            "amount": dec(d["Amount"]),
            "currency": d["Currency"],
            "status": d["State"],
            "moved": d["State"] == "COMPLETED",
            "id": None,
        })
        fees.append(-dec(d["Fee"]))
    return name, build(name, zone, "Started Date", ["Completed Date"], hl, rows, fees)


# --------------------------------------------------------------------------
# Wise: "Date Time" (dd-mm-yyyy HH:MM:SS.fff) is the moment; "Date" repeats
# the day.  Amount signed and already includes "Total fees" (informational),
# Transaction Type DEBIT/CREDIT repeats the direction.  Statement lists only
# booked movements: no status column, every row moved.
# --------------------------------------------------------------------------
def wise():
    name, zone = "wise.csv", "UTC"
    text = read_text(name)
    hl = header_line_of(text, lambda l: l.startswith("TransferWise ID,"))
    recs = records_after(text, hl)
    hdr, data = recs[0], [r for r in recs[1:] if r]
    rows = []
    for r in data:
        d = dict(zip(hdr, r))
        st = datetime.strptime(d["Date Time"], "%d-%m-%Y %H:%M:%S.%f")
        amt = dec(d["Amount"])
        # consistency check between the sign and the direction word
        assert (amt < 0) == (d["Transaction Type"] == "DEBIT"), d
        rows.append({
            "start": to_utc(st, zone),
            "amount": amt,
            "currency": d["Currency"],
            "status": None,
            "moved": True,
            "id": d["TransferWise ID"],
        })
    return name, build(name, zone, "Date Time", ["Date"], hl, rows)


# --------------------------------------------------------------------------
# Monzo: Date (dd/mm/yyyy) + Time (HH:MM:SS) together are the moment.
# Amount signed (Money Out also signed negative, Money In positive).  No
# status column; a 0.00 row (card check / authorisation) moves no money.
# --------------------------------------------------------------------------
def monzo():
    name, zone = "monzo.csv", "Europe/London"
    text = read_text(name)
    hl = header_line_of(text, lambda l: l.startswith("Transaction ID,Date,Time"))
    recs = records_after(text, hl)
    hdr, data = recs[0], [r for r in recs[1:] if r]
    rows = []
    for r in data:
        d = dict(zip(hdr, r))
        st = datetime.strptime(d["Date"] + " " + d["Time"], "%d/%m/%Y %H:%M:%S")
        amt = dec(d["Amount"])
        rows.append({
            "start": to_utc(st, zone),
            "amount": amt,
            "currency": d["Currency"],
            "status": None,
            "moved": amt != 0,
            "id": d["Transaction ID"],
        })
    return name, build(name, zone, "Date", ["Time"], hl, rows)


# --------------------------------------------------------------------------
# N26 (classic English export): Date yyyy-mm-dd only, Amount (EUR) signed.
# --------------------------------------------------------------------------
def n26():
    name, zone = "n26.csv", "Europe/Berlin"
    text = read_text(name)
    hl = header_line_of(text, lambda l: l.startswith('"Date","Payee"'))
    recs = records_after(text, hl)
    hdr, data = recs[0], [r for r in recs[1:] if r]
    rows = []
    for r in data:
        d = dict(zip(hdr, r))
        rows.append({
            "start": datetime.strptime(d["Date"], "%Y-%m-%d").date(),
            "amount": dec(d["Amount (EUR)"]),
            "currency": "EUR",
            "status": None,
            "moved": True,
            "id": None,
        })
    return name, build(name, zone, "Date", [], hl, rows)


# --------------------------------------------------------------------------
# Chase credit card: Transaction Date (mm/dd/yyyy) = purchase day, Post Date
# = posting day.  Amount signed from the card account's view: Sale/Fee
# negative, Payment/Return positive.
# --------------------------------------------------------------------------
def chase():
    name, zone = "chase.csv", "America/New_York"
    text = read_text(name)
    hl = header_line_of(text, lambda l: "Transaction Date,Post Date" in l)
    recs = records_after(text, hl)
    hdr, data = recs[0], [r for r in recs[1:] if r]
    rows = []
    for r in data:
        d = dict(zip(hdr, r))
        rows.append({
            "start": datetime.strptime(d["Transaction Date"], "%m/%d/%Y").date(),
            "amount": dec(d["Amount"]),
            "currency": "USD",
            "status": None,
            "moved": True,
            "id": None,
        })
    return name, build(name, zone, "Transaction Date", ["Post Date"], hl, rows)


# --------------------------------------------------------------------------
# ICBC debit card detail download (v2): 6 preamble lines, header on line 7,
# values padded with spaces and a trailing TAB, separate 记账金额(收入) /
# 记账金额(支出) columns (交易金额 columns hold "-"), a blank-ish line and a
# "人民币合计" totals line at the end.  Date only.
# --------------------------------------------------------------------------
def icbc():
    name, zone = "icbc.csv", "Asia/Shanghai"
    text = read_text(name)
    hl = header_line_of(text, lambda l: l.startswith("交易日期,摘要"))
    recs = records_after(text, hl)
    hdr = [h.strip() for h in recs[0]]
    rows = []
    for r in recs[1:]:
        r = [c.strip() for c in r]
        if not r or not re.match(r"^\d{4}-\d{2}-\d{2}$", r[0]):
            continue  # blank separator line and the 人民币合计 totals line
        d = dict(zip(hdr, r))
        inc, exp = d["记账金额(收入)"], d["记账金额(支出)"]
        assert bool(inc) != bool(exp), d
        amount = dec(inc) if inc else -dec(exp)
        rows.append({
            "start": datetime.strptime(d["交易日期"], "%Y-%m-%d").date(),
            "amount": amount,
            "currency": {"人民币": "CNY"}[d["记账币种"]],
            "status": None,
            "moved": True,
            "id": None,
        })
    return name, build(name, zone, "交易日期", [], hl, rows)


# --------------------------------------------------------------------------
# Alipay (支付宝) new-style export, GBK: 24 preamble lines, header line 25,
# padded values, order numbers followed by a TAB, trailing comma.
# 交易时间 is Beijing time.  Sign from 收/支: 收入 +, 支出 -, 不计收支: as written
# (neither income nor expense: docs/canonical-format.md keeps a neutral value as the
# source writes it, and leaves it out of totals).
# Moved: 交易成功 / 退款成功 yes; 交易关闭 on a 支出 row yes only if a refund row
# in the file carries that order number as prefix (paid, then refunded and the
# order closed); 交易关闭 otherwise no (order closed unpaid).
# --------------------------------------------------------------------------
def alipay():
    name, zone = "alipay.csv", "Asia/Shanghai"
    text = read_text(name, "gbk")
    hl = header_line_of(text, lambda l: l.startswith("交易时间"))
    recs = records_after(text, hl)
    hdr = [h.strip() for h in recs[0]]
    data = []
    for r in recs[1:]:
        r = [c.strip() for c in r]
        if r and re.match(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$", r[0]):
            data.append(dict(zip(hdr, r)))
    refund_ids = [d["交易订单号"] for d in data if d["交易状态"] == "退款成功"]
    rows = []
    for d in data:
        st = datetime.strptime(d["交易时间"], "%Y-%m-%d %H:%M:%S")
        money = dec(d["金额"])
        kind, status = d["收/支"], d["交易状态"]
        if kind == "收入":
            amount = money
        elif kind == "支出":
            amount = -money
        elif kind == "不计收支":
            amount = money
        else:
            raise ValueError(kind)
        if status in ("交易成功", "退款成功"):
            moved = True
        elif status == "交易关闭":
            oid = d["交易订单号"]
            moved = kind == "支出" and any(x != oid and x.startswith(oid) for x in refund_ids)
        else:
            raise ValueError(status)
        rows.append({
            "start": to_utc(st, zone),
            "amount": amount,
            "currency": "CNY",
            "status": status,
            "moved": moved,
            "id": d["交易订单号"],
        })
    return name, build(name, zone, "交易时间", [], hl, rows)


# --------------------------------------------------------------------------
# PayPal activity download (classic layout): Date m/d/yyyy + Time + a
# "Time Zone" abbreviation column (PST/PDT).  Gross signed, Fee separate
# (negative when charged), Net = Gross + Fee; numbers use thousands commas.
# Header has ", " separators; every row value quoted; trailing comma.
# Moved: Completed / Refunded / Reversed (as ledger-autosync) yes; Pending,
# Denied no.
# --------------------------------------------------------------------------
def paypal():
    name, zone = "paypal.csv", "America/Los_Angeles"
    text = read_text(name)
    hl = header_line_of(text, lambda l: l.startswith("Date, Time"))
    body = "\n".join(text.split("\n")[hl - 1:])
    recs = list(csv.reader(io.StringIO(body, newline=""), skipinitialspace=True))
    hdr, data = recs[0], [r for r in recs[1:] if r]
    rows, fees = [], []
    for r in data:
        d = dict(zip(hdr, r))
        st = datetime.strptime(d["Date"] + " " + d["Time"], "%m/%d/%Y %H:%M:%S")
        utc = to_utc(st, zone)
        # the abbreviation written in the row must agree with the zone
        assert utc.astimezone(ZoneInfo(zone)).tzname() == d["Time Zone"], d
        gross, fee, net = dec(d["Gross"]), dec(d["Fee"]), dec(d["Net"])
        assert gross + fee == net, d
        rows.append({
            "start": utc,
            "amount": gross,
            "currency": d["Currency"],
            "status": d["Status"],
            "moved": d["Status"] in ("Completed", "Refunded", "Reversed"),
            "id": d["Transaction ID"],
        })
        fees.append(fee)
    return name, build(name, zone, "Date", ["Time", "Time Zone"], hl, rows, fees)


# --------------------------------------------------------------------------
# Venmo statement (classic layout): header line 1, a statement row before the
# transactions (Username + Beginning Balance), summary rows and a multi-line
# quoted disclaimer after them.  Transactions are the rows with an ID.
# Datetime ISO without offset.  Amount "+ $18.50" / "- $1,120.00".
# --------------------------------------------------------------------------
def venmo():
    name, zone = "venmo.csv", "UTC"
    text = read_text(name)
    hl = header_line_of(text, lambda l: l.startswith("Username,ID,Datetime"))
    recs = records_after(text, hl)
    hdr = recs[0]
    rows, fees = [], []
    for r in recs[1:]:
        d = dict(zip(hdr, r))
        if not d.get("ID"):
            continue
        st = datetime.strptime(d["Datetime"], "%Y-%m-%dT%H:%M:%S")
        m = re.match(r"^([+-]) \$([0-9,]+\.\d\d)$", d["Amount (total)"])
        amount = dec(m.group(2)) * (1 if m.group(1) == "+" else -1)
        rows.append({
            "start": to_utc(st, zone),
            "amount": amount,
            "currency": "USD",
            "status": d["Status"],
            "moved": d["Status"] in ("Complete", "Issued"),
            "id": d["ID"],
        })
        fees.append(None if not d["Amount (fee)"] else -dec(d["Amount (fee)"]))
    return name, build(name, zone, "Datetime", [], hl, rows, fees)


def main():
    os.makedirs(EXPECTED, exist_ok=True)
    for fn in (revolut, wise, monzo, n26, chase, icbc, alipay, paypal, venmo):
        name, result = fn()
        size = os.path.getsize(os.path.join(BANKS, name))
        assert size < 4096, (name, size)
        out = os.path.join(EXPECTED, os.path.splitext(name)[0] + ".json")
        write_expected(out, result)
        print("%-12s events=%d header_line=%d -> %s" % (name, result["events"], result["header_line"], os.path.relpath(out, HERE)))


if __name__ == "__main__":
    main()
