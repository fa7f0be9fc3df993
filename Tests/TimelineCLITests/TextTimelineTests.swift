import Foundation
import Testing

/// The text timeline against golden files in Fixtures/text/. Each golden file was read line
/// by line when it was recorded and checked by hand against the samples:
/// - orders-en.txt: every time is the sample's instant in Asia/Shanghai (SO-1002's order at
///   16:20Z shows at 00:20 on 13 June; SO-1003's shipment at 22:40Z on 15 June); relative
///   times from --now 2024-06-13T20:00+08:00 ("22 hours ago" for 21:05 the day before,
///   "in 15 hours" for 11:15 the next day, none beyond a day); day headers say
///   yesterday/today/tomorrow; SO-1002's "-" amount shows no amount; statuses marked
///   ○ pending ● processing ✔ completed ✖ cancelled.
/// - wallet-zh.txt: Chinese headers (2024年6月12日 星期三 · 昨天), 分钟前/小时前, expenses
///   signed by 收/支, day totals 收入 +¥199.00 · 支出 −¥1,066.50 (1024.00 + 42.50, grouped
///   by threes), amounts aligned although titles mix two-column Chinese characters (快车
///   padded to 耳机退款); 纸巾 (已退款) marked ↩ refunded and counted, the 退款 row 耳机退款
///   ✔ completed: the money came back (issue 52).
/// - orders-month-en.txt: one "June 2024" header, the day before each time, details
///   indented to the title column, month total income +¥257.50 (199.00 + 58.50).
/// - wallet-split-zh.txt (--layout split): the two income rows (耳机退款 +¥199.00, 午饭AA +¥36.00)
///   sit left of the line, right-aligned to it; expenses and totals to the right; the line
///   stays in one column (34) with Chinese characters counted as two.
@Suite("text timeline")
struct TextTimelineTests {
    static let fixtures = BinaryRunner.packageRoot.appendingPathComponent(
        "Tests/TimelineCLITests/Fixtures/text")

    @Test(
        "golden files",
        arguments: [
            (
                "orders-en.txt",
                [
                    "samples/orders.csv", "--zone", "Asia/Shanghai", "--now",
                    "2024-06-13T20:00:00+08:00",
                ]
            ),
            (
                "wallet-zh.txt",
                [
                    "samples/wallet-statement.csv", "--assume-zone", "Asia/Shanghai", "--preset",
                    "none", "--map", "direction=收/支", "--locale",
                    "zh-Hans",
                    "--now", "2024-06-13T13:00:00+08:00",
                ]
            ),
            (
                "orders-month-en.txt",
                [
                    "samples/orders.csv", "--zone", "Asia/Shanghai", "--now",
                    "2024-07-01T00:00:00Z", "--group", "month",
                ]
            ),
            (
                "wallet-split-zh.txt",
                [
                    "samples/wallet-statement.csv", "--assume-zone", "Asia/Shanghai", "--preset",
                    "none", "--map", "direction=收/支", "--locale",
                    "zh-Hans",
                    "--layout", "split", "--now", "2024-06-13T13:00:00+08:00",
                ]
            ),
        ])
    func golden(file: String, arguments: [String]) throws {
        let expected = try String(
            contentsOf: Self.fixtures.appendingPathComponent(file), encoding: .utf8)
        let r = try BinaryRunner.run(["convert"] + arguments + ["--to", "text", "-q"])
        #expect(r.status == 0)
        #expect(r.stdout == expected)
    }

    @Test("events in any order come out in time order; --sort desc reverses")
    func ordering() throws {
        let base = [
            "convert", "samples/courier-trace.json", "--assume-zone", "Asia/Shanghai", "--now",
            "2024-06-20T00:00:00Z", "-q", "--to",
        ]
        // The trace lists newest first; --sort input hands it over in that order.
        let text = try BinaryRunner.run(base + ["text", "--sort", "input"]).stdout
        let times = text.split(separator: "\n").filter { $0.hasPrefix("│ ") }.map {
            String($0.dropFirst(2).prefix(5))
        }
        // 12 June, then 13 June
        #expect(times == ["10:02", "10:10", "21:05", "07:12", "09:30", "18:02"])
        let desc = try BinaryRunner.run(base + ["text", "--sort", "desc"]).stdout
        #expect(
            desc.split(separator: "\n").filter { $0.hasPrefix("│ ") }.first?.dropFirst(2).prefix(5)
                == "18:02")
        let html = try BinaryRunner.run(base + ["html", "--sort", "input"]).stdout
        #expect(html.range(of: "10:02")!.lowerBound < html.range(of: "18:02")!.lowerBound)
    }

    @Test("colour only when asked for; NO_COLOR wins over auto; never in a pipe by default")
    func colour() throws {
        let base = [
            "convert", "samples/orders.csv", "--to", "text", "--now", "2024-06-13T20:00:00+08:00",
            "-q",
        ]
        #expect(!(try BinaryRunner.run(base).stdout.contains("\u{1B}[")))
        #expect(
            try BinaryRunner.run(base + ["--color", "always"]).stdout.contains(
                "\u{1B}[32m✔\u{1B}[0m"))
        #expect(!(try BinaryRunner.run(base + ["--color", "never"]).stdout.contains("\u{1B}[")))
        #expect(
            !(try BinaryRunner.run(base, environment: ["NO_COLOR": "1"]).stdout.contains("\u{1B}["))
        )
    }
}
