import Foundation
import Testing

@testable import TimelineKit

/// Bills that open with a preamble, spreadsheet guards in cells, and inputs in GB18030.
/// Expected values by hand from the texts.
@Suite("CSV: the table after a preamble, spreadsheet guards, encodings")
struct CSVTableStartTests {
    static let wechatLike = """
        微信支付账单明细,,,,
        微信昵称：[小明],,,,
        起始时间：[2024-06-01 00:00:00] 终止时间：[2024-06-30 23:59:59],,,,
        ,,,,
        共2笔记录,,,,
        ----------------------微信支付账单明细列表--------------------,,,,
        交易时间,交易对方,收/支,金额(元),交易单号
        2024-06-12 12:45:27,某米线店,支出,¥28.16,4200001234202406120001\t
        2024-06-13 10:10:11,小红,收入,¥100.00,'0012345

        """

    static func read(_ text: String, configure: (inout ReadOptions) -> Void = { _ in }) throws
        -> ReadResult
    {
        var options = ReadOptions()
        options.format = .named("csv")
        options.dates.assumedZone = try ZoneResolver().resolve("Asia/Shanghai")
        configure(&options)
        return try Timeline.read(.string(text, name: "bill.csv"), options: options)
    }

    @Test("the header is found after a preamble; the lines before it are reported, not rejected")
    func preamble() throws {
        let r = try Self.read(Self.wechatLike)
        #expect(r.rejects.isEmpty)
        #expect(
            r.events.map(\.start.rfc3339) == [
                "2024-06-12T12:45:27+08:00", "2024-06-13T10:10:11+08:00",
            ])
        #expect(r.events.map { $0.amount?.value.description } == ["-28.16", "100.00"])
        #expect(r.events.map(\.title) == ["某米线店", "小红"])
        // The tab WeChat appends to long numbers and a leading ' are guards, not text.
        #expect(r.events.map(\.id) == ["4200001234202406120001", "0012345"])
        #expect(r.events.map { $0.source?.line } == [8, 9])
        #expect(
            r.diagnostics.contains {
                $0.message.contains(
                    "the table's header is on line 7; lines 1–6 before it are not records")
            })
    }

    @Test("--verbose lists the lines before the table; --header-line chooses the header")
    func verboseAndHeaderLine() throws {
        var lines: [String] = []
        var plan = ConvertPlan(verbose: true)
        plan.read.format = .named("csv")
        plan.read.dates.assumedZone = try ZoneResolver().resolve("Asia/Shanghai")
        plan.onDiagnostic = { lines.append("\($0.location?.line ?? 0): \($0.message)") }
        _ = try ConvertPipeline(plan).run(
            sources: [.string(Self.wechatLike, name: "bill.csv")], exporter: DiscardingExporter(),
            output: OutputWriter(inMemory: "x"))
        #expect(lines.contains("2: before the table: 微信昵称：[小明]"))
        #expect(lines.contains("1: before the table: 微信支付账单明细"))
        #expect(!lines.contains { $0.hasPrefix("4: ") })  // the empty line is not listed
        // A header on line 2: line 1 is skipped, every other line is a record.
        let r = try Self.read("report,x\ntime,title\n2024-06-12T08:00:00Z,a\n") {
            $0.csv.headerLine = 2
        }
        #expect(r.events.map(\.title) == ["a"])
        #expect(throws: TimelineError.self) {
            try Self.read("time,title\n") { $0.csv.headerLine = 5 }
        }
    }

    @Test("a plain CSV keeps its first line as the header, even when it names no known column")
    func plain() throws {
        let r = try Self.read("when,title\n2024-06-12T08:00:00Z,a\n") {
            try! $0.mapping.mapping.add("start=when")
        }
        #expect(r.events.map(\.title) == ["a"])
        // No column is a time: the file is refused once, naming its columns.
        #expect {
            try Self.read("a,b\n1,2\n")
        } throws: { error in
            (error as? TimelineError)?.diagnostic.code == FindingCode.missingStart.rawValue
                && (error as? TimelineError)?.diagnostic.message.hasSuffix(
                    "the columns are 'a', 'b'") == true
        }
    }

    @Test("Excel's =\"…\" and a leading ' before digits are removed; other text keeps its quote")
    func guards() {
        #expect("=\"0012\"".withoutSpreadsheetGuards == "0012")
        #expect("'0012".withoutSpreadsheetGuards == "0012")
        #expect("'+8613800000000".withoutSpreadsheetGuards == "+8613800000000")
        #expect("'Tis".withoutSpreadsheetGuards == "'Tis")
        #expect("=SUM(A1)".withoutSpreadsheetGuards == "=SUM(A1)")
        #expect("=\"".withoutSpreadsheetGuards == "=\"")
    }

    @Test("A cell is trimmed, then loses its guard; a clean cell comes back unchanged")
    func cleanedCells() {
        #expect("4200002201202406301234567890\t".cleanedCell == "4200002201202406301234567890")
        #expect("  '0012 ".cleanedCell == "0012")
        #expect("\t=\"0012\"".cleanedCell == "0012")
        #expect("' 0012".cleanedCell == "' 0012")
        #expect("plain".cleanedCell == "plain")
        #expect("".cleanedCell == "")
        #expect(" ".cleanedCell == "")
    }

    /// The bytes are Python's `'交易时间,商品,金额\n2024-06-12 08:00:00,咖啡,-35.50\n'.encode('gb18030')`.
    static let gb18030: [UInt8] = [
        189, 187, 210, 215, 202, 177, 188, 228, 44, 201, 204, 198, 183, 44, 189, 240, 182, 238, 10,
        50, 48, 50, 52, 45, 48, 54, 45, 49, 50,
        32, 48, 56, 58, 48, 48, 58, 48, 48, 44, 191, 167, 183, 200, 44, 45, 51, 53, 46, 53, 48, 10,
    ]

    @Test(
        "input that is not UTF-8 but is GB18030 is read as such, with a note; --encoding still wins"
    )
    func encodings() throws {
        var options = ReadOptions()
        options.dates.assumedZone = try ZoneResolver().resolve("Asia/Shanghai")
        options.format = .named("csv")
        let r = try Timeline.read(.data(Data(Self.gb18030), name: "bank.csv"), options: options)
        #expect(r.events.map(\.title) == ["咖啡"])
        #expect(r.diagnostics.contains { $0.message.hasPrefix("reading as GB18030") })
        options.encoding = .utf8
        #expect(throws: TimelineError.self) {
            try Timeline.read(.data(Data(Self.gb18030), name: "bank.csv"), options: options)
        }
        // UTF-16 with a byte-order mark.
        options.encoding = nil
        let utf16 = try Timeline.read(
            .data("time,title\n2024-06-12T08:00:00Z,x\n".data(using: .utf16)!, name: "u.csv"),
            options: options)
        #expect(utf16.events.map(\.title) == ["x"])
    }

    @Test(
        "a file with no header line: its first line is a record when its values are like those below it"
    )
    func headerless() throws {
        let text = """
            28/06/2024|COMPRA TARJ. PANADERIA SEGOVIA|29/06/2024|-4.80|2417.33
            27/06/2024|ABONO TRANSFERENCIA TALLERES|27/06/2024|2950.00|2422.13
            14/06/2024|ADEUDO RECIBO COMUNIDAD|14/06/2024|-26.99|-527.87

            """
        let r = try Self.read(text)
        #expect(r.events.count == 3 && r.rejects.isEmpty)
        #expect(r.events.map(\.start.rfc3339) == ["2024-06-28", "2024-06-27", "2024-06-14"])
        #expect(r.events.map { $0.amount?.value.description } == ["-4.80", "2950.00", "-26.99"])
        #expect(r.events.first?.title == "COMPRA TARJ. PANADERIA SEGOVIA")
        #expect(r.diagnostics.contains { $0.message.hasPrefix("no header line: line 1") })
        // A header naming its columns stays a header.
        let named = try Self.read("Date|Concept|Amount\n28/06/2024|Bread|-4.80\n")
        #expect(
            named.events.count == 1
                && !named.diagnostics.contains { $0.message.hasPrefix("no header line") })
    }
}
