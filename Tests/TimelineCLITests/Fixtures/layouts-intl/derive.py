#!/usr/bin/env python3
"""Compute the expected reading of every sample file here.

Each file is read back FROM ITS BYTES with the encoding and layout rules of
its service (never from make_files.py's data) and the result is written to
expected/<service>.json.  Where the layout carries redundancy (running
balances, debit/credit pairs, totals trailers, sign vs direction word,
foreign amount x rate) it is asserted.

Only the Python standard library is used.
"""
import codecs
import csv
import json
import os
import re
import sys
from datetime import date, datetime, timezone
from decimal import Decimal
from zoneinfo import ZoneInfo

ROOT = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(ROOT, "expected")
UTC = timezone.utc


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------
def read_text(rel, encoding, bom=False, eol=None):
    """Decode the file bytes strictly; check BOM and line-ending style."""
    with open(os.path.join(ROOT, rel), "rb") as fh:
        raw = fh.read()
    if bom:
        assert raw.startswith(codecs.BOM_UTF8), f"{rel}: BOM expected"
        raw = raw[len(codecs.BOM_UTF8):]
    else:
        assert not raw.startswith(codecs.BOM_UTF8), f"{rel}: unexpected BOM"
    text = raw.decode(encoding)            # strict: wrong codec -> error
    if eol == "\r\n":
        assert "\r\n" in text and "\n" not in text.replace("\r\n", ""), f"{rel}: CRLF expected"
    elif eol == "\n":
        assert "\r" not in text, f"{rel}: LF expected"
    return text


def physical_lines(text):
    # Do not use str.splitlines(): it also breaks on U+0085, U+2028, ...
    lines = re.split(r"\r\n|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def fields(line, delimiter):
    if line == "":
        return [""]                        # blank physical line
    recs = list(csv.reader([line], delimiter=delimiter, quotechar='"'))
    assert len(recs) == 1
    return recs[0]


def find_header(lines, header, delimiter, trailing_empty=False):
    want = list(header) + ([""] if trailing_empty else [])
    for i, line in enumerate(lines):
        if fields(line, delimiter) == want:
            return i
    raise AssertionError(f"header {header[:3]}... not found")


def num(raw, style):
    """Layout-specific number -> plain decimal string keeping the digits."""
    s = raw.strip().replace("\u00a0", "").replace(" ", "")
    sign = ""
    if s[:1] in "+-":
        sign = "-" if s[0] == "-" else ""
        s = s[1:]
    if style == "comma":          # 1.234,56  (dot = thousands, comma = decimal)
        s = s.replace(".", "").replace(",", ".")
    elif style == "point":        # 1,234.56  (comma = thousands, point = decimal)
        s = s.replace(",", "")
    else:
        raise ValueError(style)
    assert re.fullmatch(r"\d+(\.\d+)?", s), (raw, s)
    return sign + s


def neg(s):
    return s[1:] if s.startswith("-") else "-" + s


def D(s):
    return Decimal(s)


def dmy(s, sep="."):
    d, m, y = s.split(sep)
    y = int(y)
    if y < 100:
        y += 2000
    return date(y, int(m), int(d)).isoformat()


def utc_of(naive, zone):
    aware = naive.replace(tzinfo=ZoneInfo(zone))
    return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def check_running(rows, amount_key="amount", balance_key="balance", newest_first=False):
    """balance[i] == balance[prev] + amount[i] along chronological order."""
    seq = list(reversed(rows)) if newest_first else list(rows)
    for prev, cur in zip(seq, seq[1:]):
        assert D(prev[balance_key]) + D(cur[amount_key]) == D(cur[balance_key]), (prev, cur)


def emit(service, rel, zone, encoding, delimiter, decimal, header_line,
         start_field, rows):
    instants = [r["instant"] for r in rows]
    doc = {
        "file": rel,
        "assume_zone": zone,
        "encoding": encoding,
        "delimiter": delimiter,
        "decimal": decimal,
        "header_line": header_line,
        "start_field": start_field,
        "events": len(rows),
        "instants": instants,
        "first_instant": min(instants),
        "last_instant": max(instants),
        "amounts": [r.get("amount") for r in rows],
        "currencies": [r.get("currency") for r in rows],
        "statuses": [r.get("status") for r in rows],
        "canonical_statuses": [r.get("canonical") for r in rows],
        "directions": [r.get("direction") for r in rows],
        "ids": [r.get("id") for r in rows],
        "titles": [r.get("title") for r in rows],
    }
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, service + ".json"), "w", encoding="utf-8") as fh:
        json.dump(doc, fh, ensure_ascii=False, indent=2)
        fh.write("\n")
    print(f"{service:18s} {rel:30s} events={len(rows)} "
          f"{doc['first_instant']} .. {doc['last_instant']}")


# --------------------------------------------------------------------------
# Germany
# --------------------------------------------------------------------------
def dkb_v1():
    rel, enc = "banks/dkb_v1.csv", "iso-8859-1"
    lines = physical_lines(read_text(rel, enc, eol="\n"))
    assert fields(lines[0], ";")[0] == "Kontonummer:"
    hdr = ["Buchungstag", "Wertstellung", "Buchungstext",
           "Auftraggeber / Begünstigter", "Verwendungszweck", "Kontonummer",
           "BLZ", "Betrag (EUR)", "Gläubiger-ID", "Mandatsreferenz", "Kundenreferenz"]
    h = find_header(lines, hdr, ";", trailing_empty=True)
    assert any(fields(l, ";")[0].startswith("Kontostand vom") for l in lines[:h])
    rows = []
    for line in lines[h + 1:]:
        f = fields(line, ";")
        assert len(f) == len(hdr) + 1 and f[-1] == ""      # trailing ';'
        r = dict(zip(hdr, f))
        rows.append({"instant": dmy(r["Buchungstag"]), "amount": num(r["Betrag (EUR)"], "comma"),
                     "currency": "EUR", "status": None, "canonical": None, "direction": None,
                     "id": None, "title": r["Auftraggeber / Begünstigter"]})
    emit("dkb_v1", rel, "Europe/Berlin", enc, ";", "comma", h + 1, "Buchungstag", rows)


def dkb_v2():
    rel, enc = "banks/dkb_v2.csv", "utf-8"
    lines = physical_lines(read_text(rel, enc, bom=True, eol="\n"))
    assert fields(lines[0], ";")[0] == "Girokonto"
    hdr = ["Buchungsdatum", "Wertstellung", "Status", "Zahlungspflichtige*r",
           "Zahlungsempfänger*in", "Verwendungszweck", "Umsatztyp", "IBAN",
           "Betrag (€)", "Gläubiger-ID", "Mandatsreferenz", "Kundenreferenz"]
    h = find_header(lines, hdr, ";")
    canon = {"Gebucht": "completed", "Vorgemerkt": "pending"}
    rows = []
    for line in lines[h + 1:]:
        r = dict(zip(hdr, fields(line, ";")))
        amt = num(r["Betrag (€)"].rstrip(" €"), "comma")
        typ = r["Umsatztyp"]
        assert (typ == "Ausgang") == amt.startswith("-"), r   # sign vs direction word
        title = r["Zahlungsempfänger*in"] if typ == "Ausgang" else r["Zahlungspflichtige*r"]
        rows.append({"instant": dmy(r["Buchungsdatum"]), "amount": amt, "currency": "EUR",
                     "status": r["Status"], "canonical": canon[r["Status"]],
                     "direction": typ, "id": None, "title": title})
    emit("dkb_v2", rel, "Europe/Berlin", "utf-8-sig", ";", "comma", h + 1, "Buchungsdatum", rows)


def sparkasse():
    rel, enc = "banks/sparkasse_camt.csv", "iso-8859-1"
    lines = physical_lines(read_text(rel, enc, eol="\r\n"))
    hdr = ["Auftragskonto", "Buchungstag", "Valutadatum", "Buchungstext",
           "Verwendungszweck", "Glaeubiger ID", "Mandatsreferenz",
           "Kundenreferenz (End-to-End)", "Sammlerreferenz",
           "Lastschrift Ursprungsbetrag", "Auslagenersatz Ruecklastschrift",
           "Beguenstigter/Zahlungspflichtiger", "Kontonummer/IBAN",
           "BIC (SWIFT-Code)", "Betrag", "Waehrung", "Info"]
    h = find_header(lines, hdr, ";")
    canon = {"Umsatz gebucht": "completed", "Umsatz vorgemerkt": "pending"}
    rows = []
    for line in lines[h + 1:]:
        f = fields(line, ";")
        assert len(f) == len(hdr)
        r = dict(zip(hdr, f))
        rows.append({"instant": dmy(r["Buchungstag"]), "amount": num(r["Betrag"], "comma"),
                     "currency": r["Waehrung"], "status": r["Info"], "canonical": canon[r["Info"]],
                     "direction": None, "id": None,
                     "title": r["Beguenstigter/Zahlungspflichtiger"]})
    emit("sparkasse_camt", rel, "Europe/Berlin", enc, ";", "comma", h + 1, "Buchungstag", rows)


# --------------------------------------------------------------------------
# Netherlands
# --------------------------------------------------------------------------
def ing_nl():
    rel, enc = "banks/ing_nl.csv", "utf-8"
    lines = physical_lines(read_text(rel, enc, eol="\r\n"))
    hdr = ["Datum", "Naam / Omschrijving", "Rekening", "Tegenrekening", "Code",
           "Af Bij", "Bedrag (EUR)", "Mutatiesoort", "Mededelingen",
           "Saldo na mutatie", "Tag"]
    h = find_header(lines, hdr, ";")
    rows = []
    for line in lines[h + 1:]:
        r = dict(zip(hdr, fields(line, ";")))
        raw = num(r["Bedrag (EUR)"], "comma")
        assert not raw.startswith("-")                        # ING amounts are unsigned
        ab = r["Af Bij"]
        amt = {"Af": neg(raw), "Bij": raw}[ab]
        d = r["Datum"]
        rows.append({"instant": f"{d[:4]}-{d[4:6]}-{d[6:]}", "amount": amt, "currency": "EUR",
                     "status": None, "canonical": None, "direction": ab, "id": None,
                     "title": r["Naam / Omschrijving"],
                     "balance": num(r["Saldo na mutatie"], "comma")})
    check_running(rows, newest_first=True)
    emit("ing_nl", rel, "Europe/Amsterdam", enc, ";", "comma", h + 1, "Datum", rows)


def rabobank():
    rel, enc = "banks/rabobank.csv", "iso-8859-1"
    lines = physical_lines(read_text(rel, enc, eol="\r\n"))
    hdr = ["IBAN/BBAN", "Munt", "BIC", "Volgnr", "Datum", "Rentedatum", "Bedrag",
           "Saldo na trn", "Tegenrekening IBAN/BBAN", "Naam tegenpartij",
           "Naam uiteindelijke partij", "Naam initiërende partij", "BIC tegenpartij",
           "Code", "Batch ID", "Transactiereferentie", "Machtigingskenmerk",
           "Incassant ID", "Betalingskenmerk", "Omschrijving-1", "Omschrijving-2",
           "Omschrijving-3", "Reden retour", "Oorspr bedrag", "Oorspr munt", "Koers"]
    h = find_header(lines, hdr, ",")
    rows = []
    for line in lines[h + 1:]:
        f = fields(line, ",")
        assert len(f) == len(hdr)
        r = dict(zip(hdr, f))
        assert r["Bedrag"][0] in "+-" and r["Saldo na trn"][0] in "+-"   # explicit sign
        rows.append({"instant": r["Datum"], "amount": num(r["Bedrag"], "comma"),
                     "currency": r["Munt"], "status": None, "canonical": None,
                     "direction": None, "id": r["Volgnr"], "title": r["Naam tegenpartij"],
                     "balance": num(r["Saldo na trn"], "comma")})
    check_running(rows)
    volg = [int(r["id"]) for r in rows]
    assert volg == list(range(volg[0], volg[0] + len(volg)))        # Volgnr is a sequence
    emit("rabobank", rel, "Europe/Amsterdam", enc, ",", "comma", h + 1, "Datum", rows)


# --------------------------------------------------------------------------
# France
# --------------------------------------------------------------------------
def boursorama():
    rel, enc = "banks/boursorama.csv", "cp1252"
    lines = physical_lines(read_text(rel, enc, eol="\n"))
    hdr = ["dateOp", "dateVal", "label", "category", "categoryParent",
           "supplierFound", "amount", "accountNum", "accountLabel", "accountbalance"]
    h = find_header(lines, hdr, ";")
    rows, balances = [], set()
    for line in lines[h + 1:]:
        r = dict(zip(hdr, fields(line, ";")))
        balances.add(r["accountbalance"])
        rows.append({"instant": dmy(r["dateOp"], "/"), "amount": num(r["amount"], "comma"),
                     "currency": "EUR", "status": None, "canonical": None,
                     "direction": None, "id": None, "title": r["label"]})
    assert len(balances) == 1          # account balance repeated on every row
    emit("boursorama", rel, "Europe/Paris", enc, ";", "comma", h + 1, "dateOp", rows)


def credit_mutuel():
    rel, enc = "banks/credit_mutuel.csv", "iso-8859-15"
    text = read_text(rel, enc, eol="\n")
    assert "€" in text                 # 0xA4 is '€' only in ISO-8859-15
    lines = physical_lines(text)
    hdr = ["Date", "Date de valeur", "Débit", "Crédit", "Libellé", "Solde"]
    h = find_header(lines, hdr, ";")
    rows = []
    for line in lines[h + 1:]:
        r = dict(zip(hdr, fields(line, ";")))
        deb, cre = r["Débit"], r["Crédit"]
        assert (deb == "") != (cre == ""), r                         # exactly one filled
        if deb:
            amt = num(deb, "comma")
            assert amt.startswith("-")                                # debit written negative
        else:
            amt = num(cre, "comma")
            assert not amt.startswith("-")
        rows.append({"instant": dmy(r["Date"], "/"), "amount": amt, "currency": "EUR",
                     "status": None, "canonical": None, "direction": None, "id": None,
                     "title": r["Libellé"], "balance": num(r["Solde"], "comma")})
    check_running(rows)
    emit("credit_mutuel", rel, "Europe/Paris", enc, ";", "comma", h + 1, "Date", rows)


# --------------------------------------------------------------------------
# Spain
# --------------------------------------------------------------------------
def sabadell():
    rel, enc = "banks/sabadell.txt", "iso-8859-1"
    lines = physical_lines(read_text(rel, enc, eol="\n"))
    rows = []
    for line in lines:
        f = line.split("|")                # no quoting in this layout
        assert len(f) == 7, f
        assert re.fullmatch(r"\d\d/\d\d/\d{4}", f[0])  # no header: first line is data
        rows.append({"instant": dmy(f[0], "/"), "amount": num(f[3], "point"),
                     "currency": "EUR", "status": None, "canonical": None,
                     "direction": None, "id": None, "title": f[1],
                     "balance": num(f[4], "point")})
    check_running(rows, newest_first=True)
    emit("sabadell", rel, "Europe/Madrid", enc, "|", "point", None, None, rows)


# --------------------------------------------------------------------------
# Italy
# --------------------------------------------------------------------------
def inbank_bcc():
    rel, enc = "banks/inbank_bcc.csv", "utf-8"
    lines = physical_lines(read_text(rel, enc, eol="\n"))
    hdr = ["DATA", "VALUTA", "DARE", "AVERE", "CAUSALE ABI", "DESCRIZIONE OPERAZIONE"]
    h = find_header(lines, hdr, ";", trailing_empty=True)
    rows, trailer = [], None
    for line in lines[h + 1:]:
        f = fields(line, ";")
        assert len(f) == 7 and f[6] == ""
        if not re.fullmatch(r"\d\d/\d\d/\d{4}", f[0]):
            assert trailer is None
            trailer = f
            continue
        assert trailer is None, "data after trailer"
        r = dict(zip(hdr, f))
        dare, avere = r["DARE"], r["AVERE"]
        assert (dare == "") != (avere == ""), r
        amt = neg(num(dare, "comma")) if dare else num(avere, "comma")
        rows.append({"instant": dmy(r["DATA"], "/"), "amount": amt, "currency": "EUR",
                     "status": None, "canonical": None, "direction": None, "id": None,
                     "title": r["DESCRIZIONE OPERAZIONE"]})
    assert trailer is not None
    tot_dare = sum(-D(r["amount"]) for r in rows if r["amount"].startswith("-"))
    tot_avere = sum(D(r["amount"]) for r in rows if not r["amount"].startswith("-"))
    assert D(num(trailer[2], "comma")) == tot_dare and D(num(trailer[3], "comma")) == tot_avere
    emit("inbank_bcc", rel, "Europe/Rome", enc, ";", "comma", h + 1, "DATA", rows)


# --------------------------------------------------------------------------
# Brazil
# --------------------------------------------------------------------------
def nubank_conta():
    rel, enc = "banks/nubank_conta.csv", "utf-8"
    lines = physical_lines(read_text(rel, enc, eol="\n"))
    hdr = ["Data", "Valor", "Identificador", "Descrição"]
    h = find_header(lines, hdr, ",")
    rows = []
    for line in lines[h + 1:]:
        f = fields(line, ",")
        assert len(f) == 4
        r = dict(zip(hdr, f))
        assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
                            r["Identificador"])
        rows.append({"instant": dmy(r["Data"], "/"), "amount": num(r["Valor"], "point"),
                     "currency": "BRL", "status": None, "canonical": None, "direction": None,
                     "id": r["Identificador"], "title": r["Descrição"]})
    emit("nubank_conta", rel, "America/Sao_Paulo", enc, ",", "point", h + 1, "Data", rows)


def inter():
    rel, enc = "banks/inter.csv", "utf-8"
    lines = physical_lines(read_text(rel, enc, eol="\n"))
    hdr = ["Data Lançamento", "Histórico", "Descrição", "Valor", "Saldo"]
    h = find_header(lines, hdr, ";")
    pre = {fields(l, ";")[0].strip(): fields(l, ";")[1:] for l in lines[:h] if l.strip()}
    assert "Extrato Conta Corrente" in pre and "Saldo" in pre
    opening = num(pre["Saldo"][0], "comma")
    rows = []
    for line in lines[h + 1:]:
        r = dict(zip(hdr, fields(line, ";")))
        rows.append({"instant": dmy(r["Data Lançamento"], "/"), "amount": num(r["Valor"], "comma"),
                     "currency": "BRL", "status": None, "canonical": None, "direction": None,
                     "id": None, "title": r["Descrição"], "balance": num(r["Saldo"], "comma")})
    assert D(opening) + D(rows[0]["amount"]) == D(rows[0]["balance"])
    check_running(rows)
    emit("inter", rel, "America/Sao_Paulo", enc, ";", "comma", h + 1, "Data Lançamento", rows)


def nubank_fatura():
    rel, enc = "cards/nubank_fatura.csv", "utf-8"
    lines = physical_lines(read_text(rel, enc, eol="\n"))
    hdr = ["date", "title", "amount"]
    h = find_header(lines, hdr, ",")
    rows = []
    for line in lines[h + 1:]:
        r = dict(zip(hdr, fields(line, ",")))
        date.fromisoformat(r["date"])
        rows.append({"instant": r["date"], "amount": neg(num(r["amount"], "point")),
                     "currency": "BRL", "status": None, "canonical": None, "direction": None,
                     "id": None, "title": r["title"]})
    emit("nubank_fatura", rel, "America/Sao_Paulo", enc, ",", "point", h + 1, "date", rows)


def c6_fatura():
    rel, enc = "cards/c6_fatura.csv", "utf-8"
    lines = physical_lines(read_text(rel, enc, eol="\n"))
    hdr = ["Data de Compra", "Nome no Cartão", "Final do Cartão", "Categoria", "Descrição",
           "Parcela", "Valor (em US$)", "Cotação (em R$)", "Valor (em R$)"]
    h = find_header(lines, hdr, ";")
    rows = []
    for line in lines[h + 1:]:
        r = dict(zip(hdr, fields(line, ";")))
        brl = num(r["Valor (em R$)"], "point")
        usd = D(num(r["Valor (em US$)"], "point"))
        if usd:
            assert abs(usd * D(num(r["Cotação (em R$)"], "point")) - D(brl)) <= D("0.01")
        assert r["Parcela"] == "Única" or re.fullmatch(r"\d+/\d+", r["Parcela"])
        rows.append({"instant": dmy(r["Data de Compra"], "/"), "amount": neg(brl),
                     "currency": "BRL", "status": None, "canonical": None, "direction": None,
                     "id": None, "title": r["Descrição"]})
    emit("c6_fatura", rel, "America/Sao_Paulo", enc, ";", "point", h + 1, "Data de Compra", rows)


# --------------------------------------------------------------------------
# Japan
# --------------------------------------------------------------------------
def mufg():
    rel, enc = "banks/mufg.csv", "cp932"
    lines = physical_lines(read_text(rel, enc, eol="\r\n"))
    hdr = ["日付", "摘要", "摘要内容", "支払い金額", "預かり金額", "差引残高",
           "メモ", "未資金化区分", "入払区分"]
    h = find_header(lines, hdr, ",")
    rows = []
    for line in lines[h + 1:]:
        r = dict(zip(hdr, fields(line, ",")))
        y, m, d = (int(x) for x in r["日付"].split("/"))
        pay, dep = r["支払い金額"], r["預かり金額"]
        assert (pay == "") != (dep == ""), r
        amt = neg(num(pay, "point")) if pay else num(dep, "point")
        word = r["入払区分"]
        assert ("支払" in word) == bool(pay) and ("預かり" in word) == bool(dep), r
        rows.append({"instant": date(y, m, d).isoformat(), "amount": amt, "currency": "JPY",
                     "status": None, "canonical": None, "direction": word, "id": None,
                     "title": r["摘要内容"] or r["摘要"], "balance": num(r["差引残高"], "point")})
    check_running(rows)
    emit("mufg", rel, "Asia/Tokyo", enc, ",", "point", h + 1, "日付", rows)


def rakuten_bank():
    rel, enc = "banks/rakuten_bank.csv", "cp932"
    lines = physical_lines(read_text(rel, enc, eol="\n"))
    hdr = ["取引日", "入出金(円)", "残高(円)", "入出金先内容"]
    h = find_header(lines, hdr, ",")
    rows = []
    for line in lines[h + 1:]:
        r = dict(zip(hdr, fields(line, ",")))
        d = r["取引日"]
        rows.append({"instant": f"{d[:4]}-{d[4:6]}-{d[6:]}", "amount": num(r["入出金(円)"], "point"),
                     "currency": "JPY", "status": None, "canonical": None, "direction": None,
                     "id": None, "title": r["入出金先内容"], "balance": num(r["残高(円)"], "point")})
    check_running(rows)
    emit("rakuten_bank", rel, "Asia/Tokyo", enc, ",", "point", h + 1, "取引日", rows)


def rakuten_jcb():
    rel, enc = "cards/rakuten_jcb_debit.csv", "cp932"
    lines = physical_lines(read_text(rel, enc, eol="\n"))
    hdr = ["ご利用日", "ご利用先", "ご利用金額（円）", "現地通貨額", "通貨略称",
           "換算レート", "使用地域", "照会番号", "承認番号"]
    h = find_header(lines, hdr, ",")
    rows = []
    for line in lines[h + 1:]:
        r = dict(zip(hdr, fields(line, ",")))
        yen = num(r["ご利用金額（円）"], "point")
        if r["使用地域"] == "海外":
            fx = D(num(r["現地通貨額"], "point")) * D(r["換算レート"])
            assert abs(fx - D(yen)) <= 1, (fx, yen)
        else:
            assert r["使用地域"] == "国内" and r["現地通貨額"] == ""
        d = r["ご利用日"]
        rows.append({"instant": f"{d[:4]}-{d[4:6]}-{d[6:]}", "amount": neg(yen),
                     "currency": "JPY", "status": None, "canonical": None, "direction": None,
                     "id": r["照会番号"], "title": r["ご利用先"]})
    assert len({r["id"] for r in rows}) == len(rows)
    emit("rakuten_jcb_debit", rel, "Asia/Tokyo", enc, ",", "point", h + 1, "ご利用日", rows)


# --------------------------------------------------------------------------
# Korea
# --------------------------------------------------------------------------
def kb_kookmin():
    rel, enc, zone = "banks/kb_kookmin.csv", "cp949", "Asia/Seoul"
    lines = physical_lines(read_text(rel, enc, eol="\r\n"))
    hdr = ["거래일시", "적요", "보낸분/받는분", "송금메모", "출금액", "입금액", "잔액", "거래점", "구분"]
    h = find_header(lines, hdr, ",")
    rows, trailer = [], None
    for line in lines[h + 1:]:
        f = fields(line, ",")
        assert len(f) == len(hdr)
        if f[0] == "합계":
            trailer = f
            continue
        assert trailer is None
        r = dict(zip(hdr, f))
        out, inn = D(num(r["출금액"], "point")), D(num(r["입금액"], "point"))
        assert (out == 0) != (inn == 0), r
        amt = neg(num(r["출금액"], "point")) if out else num(r["입금액"], "point")
        naive = datetime.strptime(r["거래일시"], "%Y.%m.%d %H:%M:%S")
        rows.append({"instant": utc_of(naive, zone), "amount": amt, "currency": "KRW",
                     "status": None, "canonical": None, "direction": None, "id": None,
                     "title": r["보낸분/받는분"], "balance": num(r["잔액"], "point")})
    check_running(rows, newest_first=True)
    assert trailer is not None
    assert D(num(trailer[4], "point")) == sum(-D(r["amount"]) for r in rows if r["amount"].startswith("-"))
    assert D(num(trailer[5], "point")) == sum(D(r["amount"]) for r in rows if not r["amount"].startswith("-"))
    emit("kb_kookmin", rel, zone, enc, ",", "point", h + 1, "거래일시", rows)


# --------------------------------------------------------------------------
# Couriers
# --------------------------------------------------------------------------
def correios():
    rel, zone = "couriers/correios.json", "America/Sao_Paulo"
    doc = json.loads(read_text(rel, "utf-8"))
    canon = {"BDE": "completed"}
    rows, naive_seen = [], []
    for obj in doc["objetos"]:
        for ev in obj["eventos"]:
            naive = datetime.strptime(ev["dtHrCriado"], "%Y-%m-%dT%H:%M:%S")
            naive_seen.append(naive)
            rows.append({"instant": utc_of(naive, zone), "amount": None, "currency": None,
                         "status": ev["codigo"], "canonical": canon.get(ev["codigo"], "processing"),
                         "direction": None, "id": None, "title": ev["descricao"]})
    assert naive_seen == sorted(naive_seen, reverse=True)          # newest first
    emit("correios", rel, zone, "utf-8", None, None, None, "dtHrCriado", rows)


def correios_sro_v3():
    rel, zone = "couriers/correios_sro_v3.json", "America/Sao_Paulo"
    doc = json.loads(read_text(rel, "utf-8"))
    canon = {"BDE": "completed"}
    rows, naive_seen = [], []
    for obj in doc["objeto"]:
        for ev in obj["evento"]:
            naive = datetime.strptime(ev["data"] + " " + ev["hora"], "%d/%m/%Y %H:%M")
            assert datetime.strptime(ev["criacao"], "%d%m%Y%H%M%S") == naive   # redundancy
            naive_seen.append(naive)
            rows.append({"instant": utc_of(naive, zone), "amount": None, "currency": None,
                         "status": ev["tipo"], "canonical": canon.get(ev["tipo"], "processing"),
                         "direction": None, "id": None, "title": ev["descricao"]})
    assert naive_seen == sorted(naive_seen, reverse=True)
    emit("correios_sro_v3", rel, zone, "utf-8", None, None, None, "data", rows)


def laposte():
    rel = "couriers/laposte_suivi.json"
    doc = json.loads(read_text(rel, "utf-8"))
    canon = {"DI1": "completed", "DR1": "pending"}
    rows, seen = [], []
    for item in doc:
        for ev in item["shipment"]["event"]:
            aware = datetime.fromisoformat(ev["date"])
            assert aware.utcoffset() is not None                   # every value has an offset
            seen.append((ev["order"], aware))
            rows.append({"instant": aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                         "amount": None, "currency": None, "status": ev["code"],
                         "canonical": canon.get(ev["code"], "processing"),
                         "direction": None, "id": None, "title": ev["label"]})
    by_order = [a for _, a in sorted(seen)]
    assert by_order == sorted(by_order)                            # 'order' is chronological
    emit("laposte_suivi", rel, None, "utf-8", None, None, None, "date", rows)


def main():
    for fn in (dkb_v1, dkb_v2, sparkasse, ing_nl, rabobank, boursorama,
               credit_mutuel, sabadell, inbank_bcc, nubank_conta, inter,
               nubank_fatura, c6_fatura, mufg, rakuten_bank, rakuten_jcb,
               kb_kookmin, correios, correios_sro_v3, laposte):
        fn()
    return 0


if __name__ == "__main__":
    sys.exit(main())
