import Foundation
import Testing

@testable import TimelineKit

/// The pieces of the XLSX reader: DEFLATE, ZIP, serial dates, number formats. Whole
/// workbooks written by openpyxl are compared with openpyxl's own reading in the CLI tests
/// (XLSXTests).
@Suite("XLSX reader")
struct XLSXReaderTests {
    @Test(
        "DEFLATE: a stored block and a fixed-Huffman block with back references (streams from Python's zlib)"
    )
    func inflate() throws {
        let stored: [UInt8] = [1, 7, 0, 248, 255, 115, 116, 111, 114, 101, 100, 33]
        #expect(try Inflater.inflate(stored[...], limit: 100) == Array("stored!".utf8))
        let fixed: [UInt8] = [
            203, 72, 205, 201, 201, 87, 200, 64, 39, 117, 20, 74, 50, 115, 83, 115, 50, 243, 82, 21,
            1,
        ]
        #expect(
            try Inflater.inflate(fixed[...], limit: 100)
                == Array("hello hello hello hello, timeline!".utf8))
    }

    @Test("DEFLATE: damaged streams and outputs over the limit end in an error, never a trap")
    func inflateHostile() {
        let fixed: [UInt8] = [
            203, 72, 205, 201, 201, 87, 200, 64, 39, 117, 20, 74, 50, 115, 83, 115, 50, 243, 82, 21,
            1,
        ]
        for cut in [0, 1, 5, 12, 20] {
            #expect(throws: Inflater.InflateError.self) {
                try Inflater.inflate(Array(fixed.prefix(cut))[...], limit: 100)
            }
        }
        #expect(throws: Inflater.InflateError.self) { try Inflater.inflate(fixed[...], limit: 10) }
        // block type 3
        #expect(throws: Inflater.InflateError.self) { try Inflater.inflate([0x07][...], limit: 10) }
        #expect(throws: Inflater.InflateError.self) {
            try Inflater.inflate([1, 7, 0, 0, 0, 1, 2][...], limit: 10)
        }  // LEN ≠ ~NLEN
        // A back reference before the start: fixed block, literal-free length code 257, distance 0 (1 byte back).
        #expect(throws: Inflater.InflateError.self) {
            try Inflater.inflate([0x03, 0x02, 0x00][...], limit: 10)
        }
    }

    @Test("CRC-32 of the standard check input")
    func crc() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test("ZIP: not an archive, or a truncated one, is an error naming what is wrong")
    func zip() {
        #expect { _ = try ZipArchive(Array("time,title\n".utf8)) } throws: {
            ($0 as? ZipArchive.ZipError)?.message.contains("not a ZIP") == true
        }
        #expect {
            _ = try Workbook(Array("PK\u{3}\u{4}".utf8) + [UInt8](repeating: 0, count: 40))
        } throws: { $0 is Workbook.Failure }
    }

    @Test(
        "serial dates in the 1900 system, around Lotus's 29 February 1900, and in the 1904 system",
        arguments: [
            (1.0, SerialKind.date, false, "1900-01-01"),
            (59.0, .date, false, "1900-02-28"),
            (61.0, .date, false, "1900-03-01"),
            (45455.341168981, .dateTime, false, "2024-06-12T08:11:17"),
            (45455.0, .dateTime, false, "2024-06-12T00:00:00"),
            (45455.999994213, .dateTime, false, "2024-06-12T23:59:59.500"),
            (45455.9999999999, .dateTime, false, "2024-06-13T00:00:00"),
            (0.5, .time, false, "12:00:00"),
            (0.0, .date, true, "1904-01-01"),
            (43993.341168981, .dateTime, true, "2024-06-12T08:11:17"),
            (-1401.0, .date, true, "1900-03-01"),
        ])
    func serials(serial: Double, kind: SerialKind, uses1904: Bool, expected: String) {
        // Expected values: Python's datetime(1899, 12, 30) + timedelta(days=serial) for the
        // 1900 system past February 1900, datetime(1904, 1, 1) + … for the 1904 system.
        #expect(ExcelSerial.text(serial, kind: kind, uses1904: uses1904) == expected)
    }

    @Test("1900-02-29 and serials outside 0001-9999 are not dates")
    func serialsThatAreNotDates() {
        #expect(ExcelSerial.text(60, kind: .date, uses1904: false) == nil)
        #expect(ExcelSerial.text(-1, kind: .date, uses1904: false) == nil)
        #expect(ExcelSerial.text(.infinity, kind: .date, uses1904: false) == nil)
        #expect(ExcelSerial.text(2_958_466, kind: .date, uses1904: false) == nil)  // 10000-01-01
    }

    @Test(
        "number formats: built-in ids and custom codes",
        arguments: [
            ("yyyy-mm-dd hh:mm:ss", SerialKind.dateTime), ("yyyy\"年\"m\"月\"d\"日\"", .date),
            ("h:mm AM/PM", .time), ("[h]:mm:ss", .time),
            ("0.00", .number), ("[Red]#,##0.00", .number), ("\"day\" 0", .number),
            ("#,##0.00 \\d", .number), ("dd/mm/yyyy", .date),
        ])
    func formats(code: String, kind: SerialKind) {
        #expect(SerialKind(formatCode: code) == kind)
    }

    @Test("built-in number formats 14-22 are dates and times, 0-13 numbers")
    func builtInFormats() {
        #expect(SerialKind(builtInFormat: 14) == .date)
        #expect(SerialKind(builtInFormat: 21) == .time)
        #expect(SerialKind(builtInFormat: 22) == .dateTime)
        #expect((0...13).allSatisfy { SerialKind(builtInFormat: $0) == .number })
    }

    @Test("cell references to columns")
    func columns() {
        #expect(Workbook.column(ofReference: "A1") == 0)
        #expect(Workbook.column(ofReference: "Z9") == 25)
        #expect(Workbook.column(ofReference: "AA10") == 26)
        #expect(Workbook.column(ofReference: "XFD1048576") == 16383)
        #expect(Workbook.column(ofReference: "12") == nil)
    }

    @Test("XML: entities, character references, CDATA, prefixes; malformed markup is an error")
    func xml() throws {
        var scanner = XMLScanner(
            Array(
                "<?xml version=\"1.0\"?><x:t a='1 &amp; 2'>&lt;&#26085;&#x672C;<![CDATA[<b>]]></x:t><!-- c --><e/>"
                    .utf8))
        var tokens: [String] = []
        while let token = try scanner.next() {
            switch token {
            case .start(let name, let attributes, let selfClosing):
                tokens.append("<\(name) \(attributes["a"] ?? "")\(selfClosing ? "/" : "")>")
            case .end(let name): tokens.append("</\(name)>")
            case .text(let text): tokens.append(text)
            }
        }
        #expect(tokens == ["<t 1 & 2>", "<日本", "<b>", "</t>", "<e />"])
        for bad in ["<a b=1>", "<a", "<a b='x>", "text &bogus; more", "<!-- open"] {
            var s = XMLScanner(Array(bad.utf8))
            #expect(throws: XMLScanner.Failure.self, "\(bad)") { while try s.next() != nil {} }
        }
    }
}

/// A number reads as its format shows it (issue 52: the XLSX bill gives the CSV's texts).
/// Expected by hand from ECMA-376 §18.8.30 and the format codes.
@Suite("XLSX number format decimals")
struct NumberFormatDecimalsTests {
    @Test(
        "decimals of built-in and custom formats",
        arguments: [
            ("0.00", 2), ("#,##0.00", 2), ("#,##0.00 \"CNY\"", 2),
            ("[$¥-804]#,##0.00;[Red]-[$¥-804]#,##0.00", 2), ("0.0%", 0), ("0.00E+00", 0),
            ("General", 0), ("0", 0), ("0.000_);(0.000)", 3), ("\"0.00\"", 0),
        ])
    func custom(_ code: String, _ decimals: Int) {
        #expect(NumberFormatDecimals.of(formatCode: code) == decimals)
    }

    @Test("built-in formats")
    func builtIn() {
        #expect(
            [0, 1, 2, 3, 4, 9, 10, 11, 39, 44].map(NumberFormatDecimals.of(builtInFormat:)) == [
                0, 0, 2, 0, 2, 0, 0, 0, 2, 2,
            ])
    }

    @Test(
        "zeros are added, never digits taken away",
        arguments: [
            ("18.5", 2, "18.50"), ("200", 2, "200.00"), ("-18.5", 2, "-18.50"),
            ("18.499", 2, "18.499"), ("1E-7", 2, "1E-7"), ("18.5", 0, "18.5"),
        ])
    func padded(_ value: String, _ decimals: Int, _ shown: String) {
        #expect(NumberFormatDecimals.padded(value, to: decimals) == shown)
    }
}
