import Foundation
import Testing

/// The readable outputs at parity with the text one: the split layout in HTML and Markdown,
/// 今天/昨天 and relative times under --now, statuses as text, places shown, and readable
/// options refused where they would do nothing. The wallet sample by hand: 11 June a refund
/// of −¥9.90; 12 June −¥1,024.00 at 09:05, +¥199.00 at 19:30, −¥42.50 at 23:58; 13 June
/// −¥15.90 at 08:15 and +¥36.00 at 12:01 (Shanghai).
@Suite("Readable outputs: layouts and relative times")
struct ReadableLayoutTests {
    static func wallet(_ format: String, _ more: [String] = []) throws -> String {
        let r = try BinaryRunner.run(
            [
                "convert", "samples/wallet-statement.csv", "--to", format, "--assume-zone",
                "Asia/Shanghai", "--now", "2024-06-13T20:00:00+08:00", "-q",
            ] + more)
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    @Test("HTML --layout split: income left of the line, everything else right, in time order")
    func htmlSplit() throws {
        let page = try Self.wallet("html", ["--layout", "split", "--locale", "zh-Hans"])
        let rows = page.split(separator: "\n").filter { $0.contains("class=\"axis\"") }
        #expect(rows.count == 6)
        let sides = rows.map { $0.hasPrefix("<div class=\"in\">") ? "in" : "out" }
        #expect(sides == ["out", "out", "in", "out", "out", "in"])
        #expect(rows[2].contains("+¥199.00") && rows[5].contains("+¥36.00"))
        #expect(page.contains("<h2>2024年6月12日 星期三 <span class=\"relative\">昨天</span></h2>"))
        #expect(page.contains("<span class=\"relative\">今天</span>"))
        #expect(page.contains("<span class=\"status\">已完成</span>"))
        #expect(page.contains("<span class=\"ago\">20小时前</span>"))
        let plain = try Self.wallet("html")
        #expect(!plain.contains("class=\"split\"") && plain.contains("<ol class=\"line\">"))
    }

    @Test("Markdown --layout split: a two-column table per day, income left")
    func markdownSplit() throws {
        let text = try Self.wallet("markdown", ["--layout", "split"])
        #expect(
            text.contains("## Wed 12 Jun 2024 · yesterday\n\n| income | expense |\n|---:|:---|\n"))
        #expect(text.contains("| **19:30** ✔ 京东商城 · +¥199.00 — 耳机退款 | |\n"))
        #expect(text.contains("| | **23:58** ✔ 美团外卖 · −¥42.50 _(20 hours ago)_ — 夜宵 |\n"))
        #expect(!text.contains("\n- **"))
    }

    @Test("the text timeline shows an event's place")
    func textLocation() throws {
        let r = try BinaryRunner.run(["convert", "samples/calendar.ics", "--to", "text", "-q"])
        #expect(
            r.stdout.contains("│ 09:30  ✔ Daily stand-up\n│          Room 4F-2, Shenzhen office\n"))
    }

    @Test(
        "a readable option for an output that cannot honour it is refused",
        arguments: [
            (
                ["--to", "ndjson", "--layout", "split"],
                "--layout applies to text, html, markdown output, not 'ndjson'"
            ),
            (["--to", "html", "--color", "always"], "--color applies to text output, not 'html'"),
            (
                ["--to", "csv", "--locale", "zh-Hans"],
                "--locale applies to text, html, markdown output, not 'csv'"
            ),
            (
                ["--to", "json", "--now", "2024-06-13T20:00:00Z"],
                "--now applies to text, html, markdown output, not 'json'"
            ),
        ])
    func refused(flags: [String], message: String) throws {
        let r = try BinaryRunner.run(
            ["convert", "samples/orders.csv", "--zone", "Asia/Shanghai"] + flags)
        #expect(r.status == 64)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
