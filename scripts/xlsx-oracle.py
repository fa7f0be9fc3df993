#!/usr/bin/env python3
"""XLSX workbooks written by a real spreadsheet writer (openpyxl), for the XLSX reader's
tests, and what openpyxl reads back from them: the oracle the reader is compared with.

  scripts/xlsx-oracle.py sample OUT.xlsx   writes the WeChat-Pay-shaped sample bill
                                            (samples/presets/wechat-pay.xlsx)
  scripts/xlsx-oracle.py cells DIR         writes DIR/book.xlsx and DIR/book1904.xlsx (the
                                            same cells under the 1900 and 1904 date systems)
                                            and prints, as JSON, each data row as openpyxl
                                            reads it back: time as ISO 8601, title, amount, flag,
                                            and its row number
"""
import datetime
import json
import os
import sys

import openpyxl
from openpyxl.utils.datetime import CALENDAR_MAC_1904


def sample(path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "微信支付账单明细"
    preamble = [
        "微信支付账单明细", "微信昵称：[小明]", "起始时间：[2024-06-01 00:00:00] 终止时间：[2024-06-30 23:59:59]",
        "导出类型：[全部]", "导出时间：[2024-07-01 09:12:30]", None, "共3笔记录", "收入：1笔 200.00元",
        "支出：1笔 18.50元", "中性交易：1笔 100.00元", "注：", "1. 充值/提现/理财通购买/零钱通存取/信用卡还款等交易，将计入中性交易",
        "2. 本明细仅展示当前账单中的交易，不包括已删除的记录", "3. 本明细仅供个人对账使用", None,
        "----------------------微信支付账单明细列表--------------------",
    ]
    for text in preamble:
        ws.append([text])
    ws.append(["交易时间", "交易类型", "交易对方", "商品", "收/支", "金额(元)", "支付方式", "当前状态", "交易单号", "商户单号", "备注"])
    rows = [
        (datetime.datetime(2024, 6, 30, 23, 30, 5), "商户消费", "瑞幸咖啡", "生椰拿铁", "支出", 18.5, "零钱", "支付成功", "4200002201202406301234567890", "1000120240630233001", "/"),
        (datetime.datetime(2024, 6, 12, 8, 11, 17), "转账", "张三", "转账备注:午饭", "收入", 200, "/", "已存入零钱", "1000050001202406120811170001", "/", "/"),
        (datetime.datetime(2024, 6, 1, 7, 59, 59), "零钱提现", "招商银行(1234)", "/", "/", 100, "零钱", "提现已到账", "1000050001202406010759590004", "/", None),
    ]
    for row in rows:
        ws.append(list(row))
        ws.cell(row=ws.max_row, column=1).number_format = "yyyy-mm-dd hh:mm:ss"
        ws.cell(row=ws.max_row, column=6).number_format = "0.00"
    # The export ends with a summary line under the table.
    ws.append([])
    ws.append(["共3笔记录"])
    wb.save(path)


CELLS = [
    # time, number format, title, amount, flag
    (datetime.datetime(2024, 6, 12, 8, 11, 17), "yyyy-mm-dd hh:mm:ss", "a datetime", 12.5, True),
    ("2024-06-12 09:30:00", "@", "a title\nover two lines, \"quoted\"", 2, None),
    (datetime.date(2024, 2, 29), "yyyy-mm-dd", "a leap day, date only", -3, False),
    (datetime.datetime(1900, 3, 1, 0, 0), "m/d/yyyy", "the day after 1900's missing 29 February", 0.1, None),
    (datetime.datetime(2024, 6, 12, 23, 59, 59, 500000), "yyyy-mm-dd hh:mm:ss.000", "half a second before midnight", 1234567.89, True),
    (datetime.datetime(1999, 12, 31, 12, 0), "dd/mm/yyyy hh:mm", "noon on the last day of 1999", None, False),
    ("2024-06-12 08:11:17", "@", "a time written as text", 7, None),
]


def cells(directory):
    expected = []
    for name, system in (("book.xlsx", None), ("book1904.xlsx", CALENDAR_MAC_1904)):
        wb = openpyxl.Workbook()
        if system:
            wb.epoch = system
        ws = wb.active
        ws.append(["time", "title", "amount", "flag"])
        for time, fmt, title, amount, flag in CELLS:
            ws.append([time, title, amount, flag])
            ws.cell(row=ws.max_row, column=1).number_format = fmt
        # an inline string and a rich-text shared string are written by other tools; openpyxl
        # writes shared strings, which is what the reader meets most.
        path = os.path.join(directory, name)
        wb.save(path)
        back = openpyxl.load_workbook(path)
        rows = []
        for number, row in enumerate(back.active.iter_rows(min_row=2, values_only=True), start=2):
            time, title, amount, flag = row
            if isinstance(time, datetime.datetime) and time.time() == datetime.time(0) and isinstance(CELLS[len(rows)][0], datetime.date) and not isinstance(CELLS[len(rows)][0], datetime.datetime):
                time = time.date()
            rows.append({
                "time": time.isoformat(timespec="milliseconds").replace(".000", "") if isinstance(time, datetime.datetime) else str(time),
                "title": title,
                "amount": None if amount is None else repr(amount),
                "flag": None if flag is None else ("TRUE" if flag else "FALSE"),
                "row": number,
            })
        expected.append({"file": name, "rows": rows})
    print(json.dumps(expected, ensure_ascii=False))


if __name__ == "__main__":
    if sys.argv[1:2] == ["sample"]:
        sample(sys.argv[2])
    elif sys.argv[1:2] == ["cells"]:
        cells(sys.argv[2])
    else:
        sys.exit(__doc__)
