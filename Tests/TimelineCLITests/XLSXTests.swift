import Foundation
import Testing

/// XLSX input: workbooks written by a real spreadsheet writer (openpyxl, installed by
/// scripts/install-test-deps) read as openpyxl reads them back, and the WeChat-Pay-shaped
/// sample workbook converted with its preset.
@Suite("XLSX input")
struct XLSXTests {
    /// Writes the oracle workbooks into `dir` and returns openpyxl's reading of them.
    static func oracle(_ dir: URL) throws -> [[String: Any]] {
        let (data, succeeded) = try BinaryRunner.python(
            "scripts/xlsx-oracle.py", ["cells", dir.path])
        #expect(succeeded, "openpyxl could not write the workbooks")
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    @Test(
        "cells as openpyxl reads them back: datetimes, dates, a fraction of a second, numbers, booleans, text; 1900 and 1904 systems"
    )
    func againstOpenpyxl() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let books = try Self.oracle(dir)
        #expect(books.count == 2)
        for book in books {
            let file = book["file"] as? String ?? ""
            let expected = book["rows"] as? [[String: Any]] ?? []
            let r = try BinaryRunner.run([
                "convert", dir.appendingPathComponent(file).path, "--preset", "none",
                "--assume-zone", "UTC", "--sort", "input", "--to", "ndjson",
                "-q",
            ])
            #expect(r.status == 0, "\(file): \(r.stderr)")
            let events = r.stdout.split(separator: "\n").map {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
            }
            #expect(events.count == expected.count, "\(file)")
            for (event, want) in zip(events, expected) {
                let start = event["start"] as? [String: Any] ?? [:]
                let time = want["time"] as? String ?? ""
                // A date-formatted cell is a date; openpyxl reads it back as midnight.
                if let date = start["date"] as? String {
                    #expect(
                        time == date || time == date + "T00:00:00", "\(file): \(time) vs \(date)")
                } else {
                    #expect(start["raw"] as? String == time, "\(file): \(time)")
                }
                #expect(event["title"] as? String == want["title"] as? String, "\(file)")
                #expect(
                    (event["amount"] as? [String: Any])?["value"] as? String == want["amount"]
                        as? String, "\(file): \(want)")
                #expect(
                    (event["attributes"] as? [String: String])?["flag"] == want["flag"] as? String,
                    "\(file): \(want)")
                // A record's line is its row number, also after a cell that holds a line break.
                #expect(
                    (event["source"] as? [String: Any])?["line"] as? Int == want["row"] as? Int,
                    "\(file): \(want)")
            }
        }
    }

    @Test("the WeChat Pay workbook: preamble, date cells, numbers, a summary line after the table")
    func wechatWorkbook() throws {
        let r = try BinaryRunner.run([
            "convert", "samples/presets/wechat-pay.xlsx", "--assume-zone", "Asia/Shanghai",
            "--sort", "input", "--to", "ndjson",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains("(preset wechat-pay, recognised by its columns); header on line 17"))
        #expect(
            r.stderr.contains("wechat-pay.xlsx:22: note: line 22 after the table is not a record"))
        let events = r.stdout.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
        // By hand: the times are China Standard Time (+08:00); the stored amounts are 18.5,
        // 200 and 100, read as the sheet's 0.00 format shows them (as the CSV bill writes
        // them), signed by 收/支.
        #expect(
            events.map { ($0["start"] as? [String: Any])?["instant"] as? String } == [
                "2024-06-30T15:30:05Z", "2024-06-12T00:11:17Z", "2024-05-31T23:59:59Z",
            ])
        #expect(
            events.map { ($0["amount"] as? [String: Any])?["value"] as? String } == [
                "-18.50", "200.00", "100.00",
            ])
        #expect((events[2]["amount"] as? [String: Any])?["neutral"] as? Bool == true)
        #expect(
            events.map { ($0["source"] as? [String: Any])?["format"] as? String } == [
                "xlsx", "xlsx", "xlsx",
            ])
        // the sheet's row numbers
        #expect(events.map { ($0["source"] as? [String: Any])?["line"] as? Int } == [18, 19, 20])
    }

    @Test(
        "--sheet names a sheet; a missing one, a damaged workbook and a non-workbook ZIP are errors that say so"
    )
    func errors() throws {
        let missing = try BinaryRunner.run([
            "convert", "samples/presets/wechat-pay.xlsx", "--sheet", "Sheet9",
        ])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("no sheet 'Sheet9'; the sheets are '微信支付账单明细'"))
        let named = try BinaryRunner.run([
            "convert", "samples/presets/wechat-pay.xlsx", "--sheet", "微信支付账单明细", "--assume-zone",
            "Asia/Shanghai", "-q",
        ])
        #expect(named.status == 0)
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = try Data(
            contentsOf: BinaryRunner.packageRoot.appendingPathComponent(
                "samples/presets/wechat-pay.xlsx"))
        bytes = bytes.prefix(bytes.count / 2)
        let cut = dir.appendingPathComponent("cut.xlsx")
        try bytes.write(to: cut)
        let damaged = try BinaryRunner.run(["convert", cut.path])
        #expect(damaged.status == 65)
        #expect(damaged.stderr.contains("cannot read '\(cut.path)' as an XLSX workbook"))
    }

    /// The same WeChat Pay bill as CSV and as XLSX (the workbook holds three of the CSV's five
    /// rows, by their 交易单号): each row gives the same event — time, title, detail, status,
    /// category, amount, currency, neutral — whichever file it came from (issue 52).
    @Test("a bill's workbook gives the texts of its CSV")
    func sameAsCSV() throws {
        func events(_ file: String) throws -> [String: [String: Any]] {
            let r = try BinaryRunner.run([
                "convert", "samples/presets/\(file)", "--assume-zone", "Asia/Shanghai", "--to",
                "ndjson", "-q",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            var byID: [String: [String: Any]] = [:]
            for line in r.stdout.split(separator: "\n") {
                var e = try #require(
                    try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                e["source"] = nil
                e["attributes"] = nil  // the workbook leaves a trailing empty 备注 cell out
                var start = e["start"] as? [String: Any] ?? [:]
                start["raw"] = nil  // a date cell's text is ISO 8601, the CSV's as written
                e["start"] = start
                byID[e["id"] as? String ?? ""] = e
            }
            return byID
        }
        let csv = try events("wechat-pay.csv")
        let xlsx = try events("wechat-pay.xlsx")
        #expect(xlsx.count == 3)
        for (id, event) in xlsx {
            let same = try #require(csv[id], "\(id) is not in the CSV")
            #expect(NSDictionary(dictionary: event) == NSDictionary(dictionary: same), "\(id)")
        }
    }
}
