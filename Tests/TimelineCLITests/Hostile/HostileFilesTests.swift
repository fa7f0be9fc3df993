import Foundation
import Testing

/// Issue 49's hostile files, each made here: every run ends with the exit status expected,
/// well within a time bound far above the linear cost and a peak-memory bound (the child's
/// own, from `wait4`), and with no forged or hidden content in what it writes. Expected
/// statuses and messages by hand from the cases' definitions.
@Suite("hostile files: bounded, escaped, private")
struct HostileFilesTests {
    static let seconds = 5.0
    static let megabytes = 300

    /// Runs `timeline` on a file made by `make` in a fresh directory.
    static func run(_ arguments: [String], file name: String, timeout: Double = 30, make: (URL) throws -> Void) throws -> MeasuredRun {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(name)
        try make(file)
        return try MeasuredRun.run(arguments.map { $0 == "FILE" ? file.path : $0 }, timeout: timeout)
    }

    static func expectBounded(_ r: MeasuredRun, _ what: String, seconds: Double = seconds, megabytes: Int = megabytes, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.signal == nil, "\(what): killed by signal \(r.signal ?? 0)", sourceLocation: sourceLocation)
        #expect(r.seconds < seconds, "\(what): took \(r.seconds) s", sourceLocation: sourceLocation)
        #expect(r.peakMemory < megabytes << 20, "\(what): peak \(r.peakMemory >> 20) MB", sourceLocation: sourceLocation)
    }

    // MARK: XLSX within bounds

    struct WorkbookCase: CustomTestStringConvertible, Sendable {
        var name: String
        var book: @Sendable () -> HostileWorkbook
        var arguments: [String] = []
        var status: Int32
        var message: String
        var testDescription: String { name }
    }

    static let sharedMegabyte = "<sst><si><t>" + String(repeating: "x", count: 1 << 20) + "</t></si></sst>"

    static let workbookCases: [WorkbookCase] = [
        WorkbookCase(
            name: "row 2,000,000,000", book: { .sheet(HostileWorkbook.table(#"<row r="2000000000"><c r="A2000000000"><v>1</v></c></row>"#)) },
            status: 65, message: "row number '2000000000' is not one of 1–1048576"),
        WorkbookCase(name: "row 1e8", book: { .sheet(HostileWorkbook.table(#"<row r="1e8"/>"#)) }, status: 65, message: "row number '1e8' is not one of"),
        WorkbookCase(name: "rows out of order", book: { .sheet(HostileWorkbook.table(HostileWorkbook.row(5, "2024-06-12T08:00:00Z", "a") + HostileWorkbook.row(3, "2024-06-12T08:00:00Z", "b"))) },
            status: 65, message: "row 3 comes after row 5"),
        WorkbookCase(name: "column ZZZ, beyond XFD", book: { .sheet(HostileWorkbook.table(#"<row r="2"><c r="ZZZ2"><v>1</v></c></row>"#)) },
            status: 65, message: "cell reference 'ZZZ2' is not a cell of columns A–XFD"),
        WorkbookCase(
            name: "one cell at XFD and 20,000 empty rows: the far row alone is rejected",
            book: {
                .sheet(HostileWorkbook.table(
                    HostileWorkbook.row(2, "2024-06-12T08:00:00Z", "kept") + #"<row r="3"><c r="XFD3"><v>1</v></c></row>"#
                        + (4..<20_004).map { #"<row r="\#($0)"/>"# }.joined()))
            }, status: 0, message: "found 16384"),
        WorkbookCase(
            name: "cells at XFD on 40,000 rows: the cells' budget",
            book: { .sheet(HostileWorkbook.table((2..<40_002).map { #"<row r="\#($0)"><c r="XFD\#($0)"><v>1</v></c></row>"# }.joined())) },
            arguments: ["--memory", "32MB"], status: 65, message: "workbook too large: its cells hold more than 32 MB"),
        WorkbookCase(
            name: "a 1 MB shared string in 3,000 cells",
            book: {
                .sheet(
                    HostileWorkbook.table((2..<3_002).map { #"<row r="\#($0)"><c r="A\#($0)" t="s"><v>0</v></c></row>"# }.joined()),
                    sharedStrings: sharedMegabyte)
            }, arguments: ["--memory", "32MB"], status: 65, message: "workbook too large: its cells hold more than 32 MB"),
        WorkbookCase(
            name: "a sheet that expands 159 times to 300 MB",
            book: {
                var book = HostileWorkbook.sheet("")
                book.entries.removeLast()
                book.add("xl/worksheets/sheet1.xml", .repeated(prefix: Array("<worksheet><sheetData><row r=\"1\"><c><is><t>".utf8), byte: 0x61, count: 300_000_000, suffix: Array("</t></is></c></row></sheetData></worksheet>".utf8)))
                return book
            }, arguments: ["--memory", "4GB"], status: 65, message: "expands 158 times (at most 100 is read)"),
        WorkbookCase(
            name: "shared strings and styles past the memory budget together",
            book: {
                var b = HostileWorkbook.sheet(HostileWorkbook.table(""))
                b.add("xl/sharedStrings.xml", .repeated(prefix: Array("<sst><si><t>".utf8), byte: 0x61, count: 900_000, suffix: Array("</t></si></sst>".utf8)))
                b.add("xl/styles.xml", .repeated(prefix: Array("<styleSheet><x>".utf8), byte: 0x61, count: 900_000, suffix: Array("</x></styleSheet>".utf8)))
                return b
            }, arguments: ["--memory", "1MB"], status: 65, message: "its parts expand to more than the 144 KB left of the memory budget"),
        WorkbookCase(
            name: "an entry that declares 100 bytes and expands to 2 GB",
            book: {
                var book = HostileWorkbook.sheet("")
                book.entries.removeLast()
                book.add("xl/worksheets/sheet1.xml", .repeated(prefix: [], byte: 0x61, count: 2_000_000_000, suffix: []), declaredSize: 100)
                return book
            }, status: 65, message: "decompressed data larger than 100 bytes"),
        WorkbookCase(
            name: "a DOCTYPE whose entity holds a row",
            book: { .sheet(#"<!DOCTYPE w [<!ENTITY r "<row r='9'><c r='A9' t='inlineStr'><is><t>2024-01-01T00:00:00Z</t></is></c></row>">]>"# + HostileWorkbook.table("&r;")) },
            status: 65, message: "a DOCTYPE, which no part of a workbook has"),
        WorkbookCase(
            name: "two entries of one name",
            book: { var b = HostileWorkbook.sheet(HostileWorkbook.table(HostileWorkbook.row(2, "2024-06-12T08:00:00Z", "a"))); b.add("xl/worksheets/sheet1.xml", HostileWorkbook.table("")); return b },
            status: 65, message: "holds two entries named 'xl/worksheets/sheet1.xml'"),
    ]

    @Test("XLSX within bounds", arguments: workbookCases)
    func workbook(_ c: WorkbookCase) throws {
        let r = try Self.run(["convert", "FILE", "--assume-zone", "UTC", "--to", "ndjson", "--sort", "input"] + c.arguments, file: "book.xlsx") { try c.book().write(to: $0) }
        #expect(r.status == c.status, "\(r.stderr.prefix(500))")
        #expect(r.stderr.contains(c.message), "\(r.stderr.prefix(500))")
        Self.expectBounded(r, c.name)
    }

    @Test("XLSX: rows of an extension (a foreign sheetData in extLst) are not the sheet's rows")
    func extensionRows() throws {
        let foreign = #"<extLst><ext xmlns:f="urn:x"><f:sheetData><f:row r="9"><f:c r="A9" t="inlineStr"><f:is><f:t>2024-01-01T00:00:00Z</f:t></f:is></f:c></f:row></f:sheetData></ext></extLst>"#
        let r = try Self.run(["convert", "FILE", "--assume-zone", "UTC", "--to", "ndjson"], file: "book.xlsx") {
            try HostileWorkbook.sheet(HostileWorkbook.table(HostileWorkbook.row(2, "2024-06-12T08:00:00Z", "real"), after: foreign)).write(to: $0)
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText.split(separator: "\n").count == 1)
        #expect(!r.stdoutText.contains("2024-01-01"))
    }

    @Test("XLSX: a date cell whose serial is no day is rejected, not read as the year it spells")
    func serialOutOfRange() throws {
        let styles = #"<styleSheet><cellXfs><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>"#
        let rows = #"<row r="2"><c r="A2" s="1"><v>2959001</v></c><c r="B2" t="inlineStr"><is><t>far</t></is></c></row>"#
            + #"<row r="3"><c r="A3" s="1"><v>45455</v></c><c r="B3" t="inlineStr"><is><t>near</t></is></c></row>"#
        let r = try Self.run(["convert", "FILE", "--assume-zone", "UTC", "--to", "ndjson", "--sort", "input"], file: "book.xlsx") {
            try HostileWorkbook.sheet(HostileWorkbook.table(rows), styles: styles).write(to: $0)
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("book.xlsx:2: error: [E001]"), "\(r.stderr)")
        #expect(!r.stdoutText.contains("2959"))
        #expect(r.stdoutText.contains(#""date":"2024-06-12""#))  // serial 45455 is 2024-06-12 (Python: date(1899,12,30) + 45455 days)
    }

    @Test("XLSX: eight rows of 16,384 cells read in linear time")
    func fullWidthRows() throws {
        func column(_ i: Int) -> String {
            var n = i + 1
            var s = ""
            while n > 0 {
                s = String(UnicodeScalar(UInt8(65 + (n - 1) % 26))) + s
                n = (n - 1) / 26
            }
            return s
        }
        let rows = (2..<10).map { r in #"<row r="\#(r)">"# + (0..<16_384).map { #"<c r="\#(column($0))\#(r)" t="inlineStr"><is><t>v</t></is></c>"# }.joined() + "</row>" }.joined()
        let r = try Self.run(["convert", "FILE", "--assume-zone", "UTC", "--to", "ndjson"], file: "book.xlsx") {
            try HostileWorkbook.sheet(HostileWorkbook.table(rows)).write(to: $0)
        }
        #expect(r.status == 65)
        #expect(r.stderr.contains("expected 2 fields (as in the header), found 16384"))
        Self.expectBounded(r, "full-width rows", seconds: 15)
    }
}
