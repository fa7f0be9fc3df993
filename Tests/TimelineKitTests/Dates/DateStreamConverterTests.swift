import Testing

@testable import TimelineKit

@Suite("timeline dates as a library: DateStreamConverter and LineSplitter")
struct DateStreamConverterTests {
    static func lines(of text: String, chunkedAt cut: Int) -> [String] {
        let bytes = Array(text.utf8)
        var splitter = LineSplitter()
        var out: [String] = []
        let cut = min(cut, bytes.count)
        splitter.split(Array(bytes[..<cut])) { out.append($0.string) }
        splitter.split(Array(bytes[cut...])) { out.append($0.string) }
        splitter.finish { out.append($0.string) }
        return out
    }

    @Test(
        "lines split the same wherever a chunk boundary falls",
        arguments: [
            ("a\nbb\n\nccc", ["a", "bb", "", "ccc"]),
            ("a\r\nbb\r\n\r\nccc\r\n", ["a", "bb", "", "ccc"]),
            ("a\rbb\r\rccc", ["a", "bb", "", "ccc"]),
            ("a\r\nb\nc\rd", ["a", "b", "c", "d"]),
            ("", []),
            ("\n", [""]),
        ])
    func splitting(text: String, expected: [String]) {
        for cut in 0...text.utf8.count {
            #expect(Self.lines(of: text, chunkedAt: cut) == expected, "cut at \(cut)")
        }
    }

    static func convert(
        _ text: String, options: DateParsingOptions = DateParsingOptions(), zone: String = "UTC"
    )
        throws -> (String, [String], DateStreamConverter.Summary)
    {
        let converter = DateStreamConverter(
            parser: DateParser(options: options), format: .rfc3339,
            zone: try ZoneResolver().resolve(zone).rules)
        let out = OutputWriter(inMemory: "out")
        var messages: [String] = []
        let summary = try converter.run(
            InputReader(name: "-", bytes: Array(text.utf8)), to: out,
            onNotice: { line, notice in messages.append("\(line) \(notice.code)") },
            onFailure: { line, raw, error in messages.append("\(line) \(error.code) \(raw)") })
        return (String(decoding: out.bytes, as: UTF8.self), messages, summary)
    }

    @Test("one line out per line in, failures as empty lines with their line numbers")
    func convertsInOrder() throws {
        var options = DateParsingOptions()
        options.assumedZone = try ZoneResolver().resolve("Asia/Shanghai")
        let (out, messages, summary) = try Self.convert(
            "\u{FEFF}2024-06-12 08:00\r\nnope\r\n\r\n2024-06-12\r\n1718179200", options: options,
            zone: "Asia/Shanghai")
        #expect(out == "2024-06-12T08:00:00+08:00\n\n\n2024-06-12\n2024-06-12T16:00:00+08:00\n")
        #expect(messages == ["2 E001 nope", "3 E001 "])
        #expect(summary == DateStreamConverter.Summary(lines: 5, failed: 2, naive: 0))
    }

    @Test("day-first is decided from the look-ahead window before the first line is written")
    func lookahead() throws {
        let (out, _, _) = try Self.convert("03/04/2024\n05/06/2024\n25/06/2024\n")
        #expect(out == "2024-04-03\n2024-06-05\n2024-06-25\n")
        let (monthFirst, _, _) = try Self.convert("03/04/2024\n06/25/2024\n")
        #expect(monthFirst == "2024-03-04\n2024-06-25\n")
        let (undecided, messages, _) = try Self.convert("03/04/2024\n")
        #expect(undecided == "\n")
        #expect(messages == ["1 TZ112 03/04/2024"])
    }

    @Test("notices and naive values are counted")
    func notices() throws {
        var options = DateParsingOptions()
        options.assumedZone = try ZoneResolver().resolve("America/New_York")
        let (_, messages, _) = try Self.convert("2024-03-10 02:30\n", options: options)
        #expect(messages == ["1 TZ104"])
        let (_, _, summary) = try Self.convert("2024-03-10 02:30\n2024-03-10T02:30:00Z\n")
        #expect(summary.naive == 1 && summary.failed == 1)
    }
}

@Suite("DateOutputFormat")
struct DateOutputFormatTests {
    @Test(
        "the day cache never changes what is written (random and sorted instants, both sides of 1970)"
    )
    func dayCache() throws {
        var rng = SplitMix64(seed: 7)
        let zone = try #require(ZoneResolver.ianaRules("America/Santiago"))
        var cache = DateOutputFormat.DayCache()
        var seconds: Int64 = -100_000_000
        for i in 0..<50_000 {
            seconds =
                i % 2 == 0
                ? seconds + Int64(rng.next() % 5000)
                : Int64(rng.next() % 6_000_000_000) - 3_000_000_000
            let value = TimeValue(
                instant: Instant(seconds: seconds, nanoseconds: 0), offset: .utc, basis: .offset)
            var cached = [UInt8]()
            DateOutputFormat.rfc3339.append(value, in: zone, cache: &cache, to: &cached)
            var expected = TimeValue(
                instant: value.instant!, offset: zone.offset(at: value.instant!), basis: .offset
            ).rfc3339
            if expected.hasSuffix("+00:00") { expected = String(expected.dropLast(6)) + "Z" }
            #expect(String(decoding: cached, as: UTF8.self) == expected)
        }
    }

    @Test(
        "epoch outputs are whole units, rounded down, unless digits are asked for",
        arguments: [
            ("1718179200", "epoch", "1718179200"),
            ("1718179200.5", "epoch", "1718179200"),
            ("1718179200.5", "epoch:1", "1718179200.5"),
            ("1718179200123", "epoch-ms", "1718179200123"),
            ("1718179200123456", "epoch-ms", "1718179200123"),
            ("1718179200123456", "epoch-ms:3", "1718179200123.456"),
            ("1969-12-31T23:59:59.5Z", "epoch", "-1"),
            ("1969-12-31T23:59:59.5Z", "epoch:1", "-0.5"),
            ("1969-12-31T23:59:58.25Z", "epoch:2", "-1.75"),
            ("1969-12-31T23:59:58.25Z", "epoch", "-2"),
            ("2024-06-12", "epoch", "2024-06-12"),
            ("1718209800123", "rfc3339", "2024-06-12T16:30:00.123Z"),
            ("2024-06-12T16:30:00Z", "rfc3339:3", "2024-06-12T16:30:00.000Z"),
            ("2024-06-12T16:30:00.123456Z", "rfc3339:0", "2024-06-12T16:30:00Z"),
        ])
    func epochs(input: String, format name: String, expected: String) throws {
        let format = try DateOutputFormat(name)
        let value = try DateParser().parse(input).get().value
        var out = [UInt8]()
        format.append(value, in: .utc, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == expected)
    }

    @Test("fraction digits outside 0…9 are refused with an example")
    func badDigits() {
        #expect(throws: DatePattern.CompileError.self) { try DateOutputFormat("epoch:10") }
        #expect(throws: DatePattern.CompileError.self) { try DateOutputFormat("rfc3339:x") }
    }
}
