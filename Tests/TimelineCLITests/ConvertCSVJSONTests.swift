import Foundation
import Testing

/// `timeline convert` with CSV and JSON records, by running the built binary.
@Suite("convert: CSV and JSON records end to end", .serialized)
struct ConvertCSVJSONTests {
    static func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("every bundled sample converts; read = written + rejected")
    func samples() throws {
        for (args, count) in [
            (["samples/orders.csv"], 12), (["samples/wallet-statement.csv"], 6),
            (["samples/courier-trace.json"], 6), (["samples/events.ndjson"], 8),
        ] {
            let r = try BinaryRunner.run(
                ["convert"] + args + ["--assume-zone", "Asia/Shanghai", "--to", "ndjson"])
            #expect(r.status == 0, "\(args): \(r.stderr)")
            // The WeChat-Pay-shaped statement is recognised by its columns, and says so.
            let preset =
                args[0].contains("wallet")
                ? "samples/wallet-statement.csv:1: note: read as WeChat Pay bill (微信支付账单明细, CSV or XLSX) (preset wechat-pay, recognised by its columns); header on line 1\n"
                : ""
            // orders.csv's coupon row (line 9) writes its amount as '-'.
            let none =
                args[0].contains("orders")
                ? "samples/orders.csv: note: 1 value(s) in time, amount or zone columns stand for none ('-' ×1): no time, amount or zone for them\n"
                : ""
            #expect(
                r.stderr == preset + none
                    + "timeline: read \(count) records, wrote \(count), rejected 0\n")
            #expect(r.stdout.split(separator: "\n").count == count)
        }
    }

    @Test("wallet statement to CSV: signed amounts, Chinese columns kept")
    func walletCSV() throws {
        let r = try BinaryRunner.run([
            "convert", "samples/wallet-statement.csv", "--assume-zone", "Asia/Shanghai", "--to",
            "csv", "--sort", "input",
        ])
        #expect(r.status == 0)
        let lines = r.stdout.components(separatedBy: "\r\n")
        #expect(
            lines[0]
                == "id,start,zone,end,title,detail,status,category,amount,currency,direction,location,series,recorded,links,tags,支付方式,other_attributes"
        )
        // Row 1 of the sample: 2024-06-13 08:15:22, 瑞幸咖啡, 生椰拿铁, 支出, ¥15.90 (checked by hand); the
        // WeChat Pay preset titles it by the counterparty (交易对方) and signs it by 收/支; the
        // zone assumed is the start's zone; money out is no neutral amount (direction empty).
        #expect(
            lines[1]
                == "4200002024061308152210001,2024-06-13T08:15:22+08:00,Asia/Shanghai,,瑞幸咖啡,生椰拿铁,completed,商户消费,-15.90,CNY,,,,,,,零钱,"
        )
        #expect(lines[5].contains(",-1024.00,CNY,"))
    }

    @Test(
        "TSV output: the wallet statement's CSV row with tabs; -o x.tsv picks it; read back as the same events"
    )
    func tsvOutput() throws {
        let common = [
            "samples/wallet-statement.csv", "--assume-zone", "Asia/Shanghai", "--sort", "input",
        ]
        let r = try BinaryRunner.run(["convert"] + common + ["--to", "tsv"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.components(separatedBy: "\r\n")
        // The CSV test's first row (checked by hand there), with a tab for each comma.
        #expect(
            lines[1]
                == "4200002024061308152210001\t2024-06-13T08:15:22+08:00\tAsia/Shanghai\t\t瑞幸咖啡\t生椰拿铁\tcompleted\t商户消费\t-15.90\tCNY\t\t\t\t\t\t\t零钱\t"
        )
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tsv = dir.appendingPathComponent("wallet.tsv").path
        #expect(try BinaryRunner.run(["convert"] + common + ["-o", tsv]).status == 0)
        #expect(try String(contentsOfFile: tsv, encoding: .utf8) == r.stdout)
        // The TSV read back gives the events the CSV gave (ids, instants, amounts).
        let direct = try BinaryRunner.run(["convert"] + common + ["--to", "csv"])
        let again = try BinaryRunner.run([
            "convert", tsv, "--map", "start=start", "--to", "csv", "--sort", "input",
            "--assume-zone", "Asia/Shanghai",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        let field = { (line: String) in
            line.split(separator: ",", omittingEmptySubsequences: false).prefix(2).joined(
                separator: ",")
        }
        #expect(
            again.stdout.components(separatedBy: "\r\n").dropFirst().map(field)
                == direct.stdout.components(separatedBy: "\r\n").dropFirst().map(field))
    }

    @Test(
        "rejects: a CSV with the input's header plus reject_line and reject_reason; the summary points at it"
    )
    func rejectsFile() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.write(
            "time,title,amount\n2024-06-12T08:00:00Z,ok,1\n,no time,2\n2024-06-12T09:00:00Z,\"bad, amount\",12x\n",
            "in.csv", in: dir)
        let rejects = dir.appendingPathComponent("rejects.csv").path
        let out = dir.appendingPathComponent("out.ndjson").path
        let r = try BinaryRunner.run(["convert", input, "-o", out, "--rejects", rejects])
        #expect(r.status == 0)
        #expect(
            r.stderr.hasSuffix("timeline: read 3 records, wrote 1, rejected 2 (see \(rejects))\n"))
        let text = try String(contentsOfFile: rejects, encoding: .utf8)
        #expect(
            text == "time,title,amount,reject_line,reject_reason\r\n"
                + ",no time,2,3,no start time: column 'time' is empty\r\n"
                + "2024-06-12T09:00:00Z,\"bad, amount\",12x,4,\"amount (column 'amount'): cannot read '12x' as an amount such as '-12.50', '¥1,024.00' or '1.234,50'\"\r\n"
        )
        let strict = try BinaryRunner.run([
            "convert", input, "-o", dir.appendingPathComponent("strict.ndjson").path, "--strict",
        ])
        #expect(strict.status == 65)
        #expect(
            !FileManager.default.fileExists(
                atPath: dir.appendingPathComponent("strict.ndjson").path))
    }

    @Test("convert --validate writes the report to stderr, also with --group")
    func convertValidate() throws {
        let r = try BinaryRunner.run([
            "convert", "samples/orders.csv", "--zone", "Asia/Shanghai", "--group", "day",
            "--validate",
        ])
        #expect(r.status == 0)
        #expect(r.stdout.contains("\"groups\":["))
        #expect(r.stderr.contains("TZ103 day-shift (2)"))
        #expect(r.stderr.contains("12 records, 0 rejected; 0 errors, 2 warnings"))
    }

    @Test("naive times without --assume-zone: exit 65, how many and which flag, no output file")
    func naive() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.json").path
        let r = try BinaryRunner.run(["convert", "samples/wallet-statement.csv", "-o", out])
        #expect(r.status == 65)
        #expect(
            r.stderr.contains(
                "timeline: error: 6 value(s) have no UTC offset or zone and no zone was named; pass --assume-zone ZONE"
            ))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test(
        "mapping mistakes are usage errors that list what exists",
        arguments: [
            (
                ["--map", "colour=status"],
                "invalid mapping 'colour=status'; expected FIELD=COLUMN with FIELD one of id, start"
            ),
            (
                ["--map", "start=when"],
                "--map start=when: no column 'when'; columns are: order_id, event, status, time, amount, currency, note"
            ),
            (["--status-map", "x=finished"], "invalid --status-map 'x=finished'"),
            (["--delimiter", ";;"], "invalid value ';;' for '--delimiter'"),
            (
                ["--encoding", "ebcdic"],
                "invalid value 'ebcdic' for '--encoding'; valid values: utf-8, gb18030, utf-16, latin1"
            ),
        ])
    func mappingErrors(extra: [String], message: String) throws {
        let r = try BinaryRunner.run(["convert", "samples/orders.csv"] + extra)
        #expect(r.status == 64)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    @Test("GB18030, UTF-16 and Latin-1 inputs read as the same events as UTF-8")
    func encodings() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = "交易时间,商品,金额\n2024-06-12 08:00:00,生椰拿铁 café,-15.90\n"
        let utf8 = try Self.write(text, "u8.csv", in: dir)
        let expected = try BinaryRunner.run([
            "convert", utf8, "--assume-zone", "Asia/Shanghai", "--to", "csv",
        ]).stdout
        #expect(expected.contains("生椰拿铁 café"))
        for (encoding, iconvName) in [("gb18030", "GB18030"), ("utf-16", "UTF-16")] {
            // Same file name in its own folder: default ids include the file name.
            let data = try #require(iconv(text, to: iconvName))
            let folder = dir.appendingPathComponent(encoding)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("u8.csv")
            try data.write(to: path)
            let r = try BinaryRunner.run([
                "convert", path.path, "--encoding", encoding, "--assume-zone", "Asia/Shanghai",
                "--to", "csv",
            ])
            #expect(r.status == 0, "\(encoding): \(r.stderr)")
            #expect(r.stdout == expected, "\(encoding)")
        }
        let latin = dir.appendingPathComponent("latin1.csv")
        try Data(
            "time,title\n2024-06-12T08:00:00Z,caf\u{E9}\n".unicodeScalars.map { UInt8($0.value) }
        ).write(to: latin)
        let l = try BinaryRunner.run(["convert", latin.path, "--encoding", "latin1", "--to", "csv"])
        #expect(l.stdout.contains(",café,"))
        let wrong = try BinaryRunner.run([
            "convert", latin.path, "--to", "csv", "--rejects",
            dir.appendingPathComponent("r.ndjson").path,
        ])
        // 'time,title\n' (11) + '2024-06-12T08:00:00Z,' (21) + 'caf' (3): the é is byte 35.
        #expect(wrong.stderr.contains("invalid UTF-8 at byte offset 35"))
    }
}
