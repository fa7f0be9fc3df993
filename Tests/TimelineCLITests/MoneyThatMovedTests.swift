import Foundation
import Testing

/// Day totals count the money that moved (issue 52): failed, declined and void charges and
/// holds are shown and left out; a refunded sale still counts, and its refund is an event of
/// its own; a wallet's refund row is income; a withdrawal is neither. Every table below was
/// worked out by hand from the files (the WeChat Pay and Alipay ones agree with the bills' own
/// summaries: WeChat 收入 2笔 218.50, 支出 2笔 53.50, 中性交易 100.00; Alipay 收入 28.50, 支出
/// 69.74, 不计收支 16.03).
@Suite("money that moved: day totals")
struct MoneyThatMovedTests {
    /// Day → "CUR income expense" per currency, as the grouped JSON document gives them.
    static func dayTotals(_ arguments: [String], stdin: String? = nil) throws -> [String: [String]]
    {
        let r = try BinaryRunner.run(
            ["convert"] + arguments + ["--to", "json", "--group", "day", "-q"], stdin: stdin)
        #expect(r.status == 0, "\(r.stderr)")
        let document =
            try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        var result: [String: [String]] = [:]
        for group in document["groups"] as? [[String: Any]] ?? [] {
            let totals = (group["totals"] as? [[String: Any]] ?? []).map { t in
                "\(t["currency"] as? String ?? "-") \(t["income"] as? String ?? "") \(t["expense"] as? String ?? "")"
            }
            result[group["key"] as? String ?? ""] = totals
        }
        return result
    }

    static let samples: [(file: String, flags: [String], days: [String: [String]])] = [
        (
            "samples/presets/wechat-pay.csv", ["--assume-zone", "Asia/Shanghai"],
            [
                "2024-06-01": [],  // 零钱提现: neutral
                "2024-06-03": ["CNY 18.50 0.00"],  // 商户消费-退款, 收入: the refund came in
                "2024-06-05": ["CNY 0.00 -35.00"],
                "2024-06-12": ["CNY 200.00 0.00"],
                "2024-06-30": ["CNY 0.00 -18.50"],
            ]
        ),
        (
            "samples/presets/wechat-pay.xlsx", ["--assume-zone", "Asia/Shanghai"],
            [
                "2024-06-01": [], "2024-06-12": ["CNY 200.00 0.00"],
                "2024-06-30": ["CNY 0.00 -18.50"],
            ]
        ),
        (
            "samples/presets/alipay.csv", ["--assume-zone", "Asia/Shanghai"],
            [
                "2024-06-02": ["CNY 28.50 0.00"],
                "2024-06-04": [],  // 退款 to the credit card, 不计收支: neutral
                "2024-06-08": ["CNY 0.00 -20.00"],  // 等待确认收货: paid, held by Alipay for the seller
                "2024-06-12": ["CNY 0.00 -49.74"],
            ]
        ),
        (
            "samples/presets/paypal.csv", ["--zone", "America/Los_Angeles"],
            [
                "2024-03-10": ["USD 25.50 -10.00"],
                // the -100.00 General Authorization is a Memo: a hold
                "2024-11-03": ["USD 0.00 -4.99"],
            ]
        ),
        (
            "samples/presets/stripe.csv", ["--zone", "UTC"],
            [
                "2024-06-12": ["USD 49.00 0.00"],
                "2024-06-30": ["USD 15.00 0.00"],  // refunded later: the sale still happened
                "2024-07-01": [],  // Failed: nothing moved
                // the refund, from Amount Refunded and Refunded date
                "2024-07-02": ["USD 0.00 -15.00"],
            ]
        ),
        (
            "samples/presets/bank-statement.csv", ["--assume-zone", "Europe/London"],
            [
                "2024-06-01": [],  // the opening balance: no amount
                "2024-06-03": ["- 0.00 -750.00"], "2024-06-12": ["- 2100.00 0.00"],
                "2024-06-28": ["- 0.00 -1024.50"],
            ]
        ),
    ]

    @Test("every wallet and payment sample: its day totals", arguments: samples.indices)
    func sample(_ i: Int) throws {
        let s = Self.samples[i]
        #expect(try Self.dayTotals([s.file] + s.flags) == s.days, "\(s.file)")
    }

    @Test(
        "a failed charge is shown and left out; a refunded one counts with its refund",
        arguments: [
            (
                """
                id,Created (UTC),Amount,Currency,Status
                ch_1,2024-06-01 10:00:00,10.00,usd,Failed
                ch_2,2024-06-01 11:00:00,5.00,usd,Paid
                ch_3,2024-06-01 12:00:00,7.00,usd,Declined

                """, ["2024-06-01": ["USD 5.00 0.00"]]
            ),
            (
                """
                id,Created (UTC),Amount,Amount Refunded,Currency,Refunded date (UTC),Status
                ch_4,2024-06-02 10:00:00,20.00,20.00,usd,2024-06-02 18:00:00,Refunded
                ch_5,2024-06-02 11:00:00,30.00,5.00,usd,2024-06-04 09:00:00,Partially refunded
                ch_6,2024-06-02 12:00:00,8.00,0.00,usd,,Paid

                """, ["2024-06-02": ["USD 58.00 -20.00"], "2024-06-04": ["USD 0.00 -5.00"]]
            ),
        ])
    func charges(_ csv: String, _ days: [String: [String]]) throws {
        #expect(try Self.dayTotals(["-", "--from", "csv", "--zone", "UTC"], stdin: csv) == days)
    }

    @Test("a hold (Balance Impact Memo) is shown and left out")
    func hold() throws {
        let csv = """
            Date,Time,TimeZone,Name,Status,Currency,Gross,Balance Impact
            2024-06-03,10:00:00,PDT,Card check,Pending,USD,-50.00,Memo
            2024-06-03,11:00:00,PDT,Corner Books,Completed,USD,-5.00,Debit
            2024-06-03,12:00:00,PDT,Bob Smith,Completed,USD,12.00,Credit

            """
        #expect(
            try Self.dayTotals(["-", "--from", "csv", "--zone", "America/Los_Angeles"], stdin: csv)
                == ["2024-06-03": ["USD 12.00 -5.00"]])
    }

    @Test("a wallet's purchase refunded and its refund row; a withdrawal is neither")
    func wallet() throws {
        let csv = """
            交易时间,交易类型,交易对方,收/支,金额(元),当前状态
            2024-06-04 10:00:00,商户消费,小店,支出,¥30.00,已全额退款
            2024-06-05 09:00:00,商户消费-退款,小店,收入,¥30.00,已全额退款
            2024-06-06 10:00:00,零钱提现,招商银行(1234),/,¥100.00,提现已到账

            """
        let flags = ["-", "--from", "csv", "--assume-zone", "Asia/Shanghai"]
        #expect(
            try Self.dayTotals(flags, stdin: csv) == [
                "2024-06-04": ["CNY 0.00 -30.00"], "2024-06-05": ["CNY 30.00 0.00"],
                "2024-06-06": [],
            ])
        // The purchase was refunded; the refund row is done.
        let r = try BinaryRunner.run(["convert"] + flags + ["--to", "ndjson", "-q"], stdin: csv)
        let statuses = r.stdout.split(separator: "\n").map { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?[
                "status"] as? String
        }
        #expect(statuses == ["refunded", "completed", "completed"])
    }
}
