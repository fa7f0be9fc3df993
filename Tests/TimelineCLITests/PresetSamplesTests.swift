import Foundation
import Testing

/// The real-export samples of samples/presets/ convert with no flags (or only
/// `--assume-zone` where the export states no zone), each event's instant (or date), amount
/// and id checked against values worked out by hand from the sample's rows:
/// - WeChat Pay and Alipay times are China Standard Time (+08:00 all year): subtract 8 hours.
/// - PayPal's 03/10/2024 (month-first, the preset's order; no value decides it) is the
///   spring-forward day in Los Angeles: 01:30 PST (-08:00) is 09:30Z, 03:30 PDT (-07:00)
///   10:30Z; 11/03/2024 01:30 happens twice, PDT first (08:30Z), then PST (09:30Z).
/// - Stripe's `Created (UTC)` values are UTC as they stand.
/// - Shopify's offsets are in the values; 2024-11-03 01:30 -0500 is 06:30Z.
/// - AfterShip's checkpoint_time values carry their offsets (not the tracking's created_at).
/// - The bank statement is day-first (28/06/2024 decides it), dates without a time.
@Suite("real exports convert without flags")
struct PresetSamplesTests {
    struct Expected {
        var start: String
        var amount: String?
        var id: String? = nil
    }

    static func events(_ file: String, _ extra: [String] = []) throws -> (
        events: [[String: Any]], stderr: String
    ) {
        let r = try BinaryRunner.run(
            ["convert", "samples/presets/\(file)", "--to", "ndjson", "--sort", "input"] + extra)
        #expect(r.status == 0, "\(file): \(r.stderr)")
        let events = r.stdout.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
        return (events, r.stderr)
    }

    static func check(
        _ file: String, _ extra: [String] = [], preset: String?, _ expected: [Expected]
    ) throws {
        let (events, stderr) = try events(file, extra)
        #expect(events.count == expected.count, "\(file)")
        if let preset { #expect(stderr.contains("(preset \(preset)"), "\(file): \(stderr)") }
        #expect(stderr.contains("rejected 0"), "\(file): \(stderr)")
        for (event, want) in zip(events, expected) {
            let start = event["start"] as? [String: Any]
            #expect(
                (start?["instant"] ?? start?["date"]) as? String == want.start,
                "\(file): \(event["id"] ?? "")")
            let amount = event["amount"] as? [String: Any]
            #expect(amount?["value"] as? String == want.amount, "\(file): \(event["id"] ?? "")")
            if let id = want.id { #expect(event["id"] as? String == id) }
        }
    }

    @Test("WeChat Pay bill: 16-line preamble, tabs after the ids, 收/支 signs, '/' neutral")
    func wechat() throws {
        try Self.check(
            "wechat-pay.csv", ["--assume-zone", "Asia/Shanghai"], preset: "wechat-pay",
            [
                Expected(
                    start: "2024-06-30T15:30:05Z", amount: "-18.50",
                    id: "4200002201202406301234567890"),
                Expected(start: "2024-06-12T00:11:17Z", amount: "200.00"),
                Expected(start: "2024-06-05T11:02:44Z", amount: "-35.00"),
                Expected(start: "2024-06-03T04:00:00Z", amount: "18.50"),
                Expected(start: "2024-05-31T23:59:59Z", amount: "100.00"),
            ])
        let (events, _) = try Self.events("wechat-pay.csv", ["--assume-zone", "Asia/Shanghai"])
        // The withdrawal (收/支 '/') is neither income nor expense; the refund row (商户消费-退款,
        // 已全额退款) is money that came back: done.
        #expect((events[4]["amount"] as? [String: Any])?["neutral"] as? Bool == true)
        #expect((events[0]["amount"] as? [String: Any])?["neutral"] == nil)
        #expect(events[3]["status"] as? String == "completed")
        #expect(events[0]["title"] as? String == "瑞幸咖啡" && events[0]["detail"] as? String == "生椰拿铁")
    }

    @Test("Alipay record: GB18030, padded header with a trailing comma, 不计收支 neutral")
    func alipay() throws {
        try Self.check(
            "alipay.csv", ["--assume-zone", "Asia/Shanghai"], preset: "alipay",
            [
                Expected(
                    start: "2024-06-12T13:32:14Z", amount: "-49.74",
                    id: "2024061222001411000103000001"),
                Expected(start: "2024-06-08T06:16:52Z", amount: "-20.00"),
                Expected(start: "2024-06-04T10:21:04Z", amount: "16.03"),
                Expected(start: "2024-06-01T16:24:35Z", amount: "28.50"),
            ])
        let (events, stderr) = try Self.events("alipay.csv", ["--assume-zone", "Asia/Shanghai"])
        #expect(stderr.contains("GB18030"))
        #expect((events[2]["amount"] as? [String: Any])?["neutral"] as? Bool == true)
        #expect(events[1]["status"] as? String == "processing")  // 等待确认收货
    }

    @Test("PayPal download: date, time and zone columns joined across both DST changes")
    func paypal() throws {
        try Self.check(
            "paypal.csv", preset: "paypal",
            [
                Expected(start: "2024-03-10T09:30:00Z", amount: "-10.00", id: "1AB23456CD789012E"),
                Expected(start: "2024-03-10T10:30:00Z", amount: "25.50"),
                Expected(start: "2024-11-03T08:30:00Z", amount: "-4.99"),
                Expected(start: "2024-11-03T09:30:00Z", amount: "-100.00"),
            ])
    }

    @Test("Stripe payments: the header's (UTC) is the values' zone")
    func stripe() throws {
        try Self.check(
            "stripe.csv", preset: "stripe",
            [
                Expected(
                    start: "2024-06-12T01:02:03Z", amount: "49.00",
                    id: "ch_3PQa1b2C3d4E5f6G0a1b2c3d"),
                Expected(start: "2024-06-30T23:59:59Z", amount: "15.00"),
                // Its refund, right after it: Amount Refunded, negated, at its Refunded date (UTC).
                Expected(
                    start: "2024-07-02T10:00:00Z", amount: "-15.00",
                    id: "ch_3PQa1b2C3d4E5f6G1a1b2c3d/refund"),
                Expected(start: "2024-07-01T00:00:00Z", amount: "120.50"),
            ])
    }

    @Test("Shopify orders: one event per filled moment, the total on the payment only")
    func shopify() throws {
        try Self.check(
            "shopify-orders.csv", preset: "shopify-orders",
            [
                Expected(start: "2024-06-12T14:15:30Z", amount: nil, id: "#1001/Order created"),
                Expected(start: "2024-06-12T14:15:32Z", amount: "59.90", id: "#1001/Order paid"),
                Expected(start: "2024-06-13T13:00:00Z", amount: nil, id: "#1001/Order fulfilled"),
                Expected(start: "2024-11-03T03:50:00Z", amount: nil, id: "#1002/Order created"),
                Expected(start: "2024-11-03T03:50:05Z", amount: "20.00", id: "#1002/Order paid"),
                Expected(start: "2024-11-03T06:30:00Z", amount: nil, id: "#1002/Order cancelled"),
            ])
        let (events, stderr) = try Self.events("shopify-orders.csv")
        #expect(events.allSatisfy { ($0["series"] as? String)?.hasPrefix("#100") == true })
        // The second line item of #1001 is no event and no reject, and is reported.
        #expect(
            stderr.contains("shopify-orders.csv:3: note: 1 row(s) have no time in any event column")
        )
    }

    @Test("AfterShip response: the checkpoints, by checkpoint_time, with the tracking number")
    func aftership() throws {
        try Self.check(
            "aftership.json", preset: "aftership",
            [
                Expected(start: "2024-06-10T22:01:00Z", amount: nil, id: "aftership.json:1"),
                Expected(start: "2024-06-11T12:45:00Z", amount: nil),
                Expected(start: "2024-06-12T16:12:00Z", amount: nil),
                Expected(start: "2024-06-12T21:30:00Z", amount: nil),
            ])
        let (events, _) = try Self.events("aftership.json")
        #expect(
            events.map { $0["status"] as? String } == [
                "pending", "processing", "processing", "completed",
            ])
        #expect(
            events.allSatisfy {
                $0["series"] as? String == "9400111899223197428490" && $0["recorded"] == nil
            })
    }

    @Test("17TRACK response: the events of every carrier of every number (arrays within arrays)")
    func track17() throws {
        // China Post's events at +08:00, then USPS's at -07:00 (Oakland in June).
        try Self.check(
            "17track.json", preset: "17track",
            [
                Expected(start: "2024-06-11T08:05:09Z", amount: nil),
                Expected(start: "2024-06-12T15:40:00Z", amount: nil),
                Expected(start: "2024-06-17T14:45:00Z", amount: nil),
                Expected(start: "2024-06-17T21:30:00Z", amount: nil),
            ])
        let (events, _) = try Self.events("17track.json")
        #expect(
            events.map { $0["status"] as? String } == [
                "processing", "processing", "processing", "completed",
            ])
        #expect(events.allSatisfy { $0["series"] as? String == "LX123456789CN" })
    }

    @Test("Kuaidi100 response on one line: a document, not one NDJSON record")
    func kuaidi100() throws {
        try Self.check(
            "kuaidi100.json", ["--assume-zone", "Asia/Shanghai"], preset: "kuaidi100",
            [
                Expected(start: "2024-06-12T10:02:11Z", amount: nil),
                Expected(start: "2024-06-12T00:11:17Z", amount: nil),
                Expected(start: "2024-06-11T15:40:00Z", amount: nil),
                Expected(start: "2024-06-11T08:05:09Z", amount: nil),
            ])
    }

    @Test("bank statement: day-first dates, Paid out and Paid in as signed amounts")
    func bank() throws {
        try Self.check(
            "bank-statement.csv", preset: nil,
            [
                Expected(start: "2024-06-01", amount: nil),
                Expected(start: "2024-06-03", amount: "-750.00"),
                Expected(start: "2024-06-12", amount: "2100.00"),
                Expected(start: "2024-06-28", amount: "-1024.50"),
            ])
    }

    @Test("--preset none reads a bill by header names only; an unknown preset is a usage error")
    func presetOption() throws {
        let none = try BinaryRunner.run([
            "convert", "samples/presets/paypal.csv", "--preset", "none", "--to", "ndjson",
        ])
        // Without the preset, 03/10/2024 could be either order: every row is refused.
        #expect(none.status == 65)
        let unknown = try BinaryRunner.run([
            "convert", "samples/presets/paypal.csv", "--preset", "paypall",
        ])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr.contains(
                "unknown preset 'paypall'; presets are wechat-pay, alipay, paypal"))
    }

    @Test("timeline presets lists every preset with its documentation; NAME prints its file")
    func presetsCommand() throws {
        let list = try BinaryRunner.run(["presets"])
        #expect(list.status == 0)
        for name in [
            "wechat-pay", "alipay", "paypal", "stripe", "shopify-orders", "aftership", "17track",
            "kuaidi100",
        ] {
            #expect(
                list.stdout.contains("\n\(name)\n") || list.stdout.hasPrefix("\(name)\n"), "\(name)"
            )
        }
        #expect(list.stdout.components(separatedBy: "  follows: ").count - 1 >= 8)
        let file = try BinaryRunner.run(["presets", "paypal"])
        #expect(file.stdout.contains("\"preset\": \"paypal\""))
        // The printed file works as --preset FILE.
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("my-paypal.json").path
        try file.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try BinaryRunner.run([
            "convert", "samples/presets/paypal.csv", "--preset", path, "--to", "ndjson", "-q",
        ])
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").count == 4)
    }
}
