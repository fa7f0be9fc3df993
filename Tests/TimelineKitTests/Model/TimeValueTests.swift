import Testing

@testable import TimelineKit

@Suite("TimeValue (source text kept by its form)")
struct TimeValueTests {
    /// `text` read as a record's time is, with `raw` set from its bytes.
    static func read(_ text: String) throws -> TimeValue {
        let zone = try ResolvedZone(named: "Asia/Shanghai")
        let read = try text.withByteView { DateParser().parse(bytes: $0, recordZone: zone) }.get()
        var value = read.value
        text.withByteView { value.setRaw($0, form: read.rawForm) }
        return value
    }

    // The oracle is the text itself: `raw` must give back exactly what was read.
    @Test(
        "text that is the value's own rendering is kept by its form, and given back as it was",
        arguments: [
            "2024-06-12T08:00:00+08:00", "2024-06-12T08:00:00-05:30", "2024-06-12T00:00:00Z",
            "2024-06-12T08:00:00.5+08:00", "2024-06-12T08:00:00.123000+08:00",
            "2024-06-12T08:00:00.123456789Z", "2024-06-12 08:00:00+00:00", "2024-06-12 08:00:00Z",
            "0001-01-01T08:05:43+08:05",
        ])
    func keptByForm(text: String) throws {
        let value = try Self.read(text)
        #expect(value.rawForm != nil, "\(text)")
        #expect(value.rawText == nil)
        #expect(value.raw == text)
    }

    @Test(
        "any other text is kept as a string",
        arguments: [
            "2024-06-12t08:00:00z", "2024-06-12T08:00:00+0800", " 2024-06-12T08:00:00+08:00",
            "2024-06-12T08:00:00+08:00 ", "2024-06-12T08:00:00-00:00", "2024-06-12T08:00:00 +08:00",
            "2024-06-12T08:00+08:00", "2024-06-12", "20240612T080000Z", "2024-06-12T08:00:00,5Z",
            "2024-06-12T08:00:00+05:30:15", "2024-06-12 08:00:00", "2024-06-12T08:00:00",
            "2024-06-12T08:00:00+08",
        ])
    func keptAsText(text: String) throws {
        let value = try Self.read(text)
        #expect(value.rawForm == nil, "\(text)")
        #expect(value.raw == text)
    }

    @Test("changing what the rendering reads keeps the text that was read")
    func mutation() throws {
        var value = try Self.read("2024-06-12T08:00:00.5+08:00")
        value.fractionDigits = 3
        #expect(value.raw == "2024-06-12T08:00:00.5+08:00")
        #expect(value.rfc3339 == "2024-06-12T08:00:00.500+08:00")
        var moved = try Self.read("2024-06-12T08:00:00Z")
        moved.moment = .instant(
            Instant(seconds: 0, nanoseconds: 0), offset: UTCOffset(seconds: 3600), zone: nil)
        #expect(moved.raw == "2024-06-12T08:00:00Z")
        var dated = try Self.read("2024-06-12 08:00:00+08:00")
        dated.moment = .date(CivilDate(year: 2024, month: 6, day: 12)!)
        #expect(dated.raw == "2024-06-12 08:00:00+08:00")
    }

    @Test("values are equal, and hash alike, however their text is held")
    func equality() throws {
        let byForm = try Self.read("2024-06-12T08:00:00+08:00")
        var asText = byForm
        asText.raw = "2024-06-12T08:00:00+08:00"
        #expect(byForm.rawForm != nil && asText.rawForm == nil)
        #expect(byForm == asText)
        #expect(byForm.hashValue == asText.hashValue)
        var other = byForm
        other.raw = "2024-06-12T08:00:00+0800"
        #expect(byForm != other)
        #expect(try Self.read("2024-06-12T08:00:00Z") != Self.read("2024-06-12 08:00:00Z"))
    }

    @Test("the end of the text says whether it was written in UTC")
    func writtenInUTC() throws {
        #expect(try Self.read("2024-06-12T00:00:00Z").rawEndsInZ)
        #expect(try Self.read("2024-06-12 00:00:00Z").rawEndsInZ)
        #expect(try Self.read("2024-06-12t00:00:00z").rawEndsInZ)
        #expect(try !Self.read("2024-06-12T00:00:00+00:00").rawEndsInZ)
        #expect(try !Self.read("2024-06-12 08:00:00").rawEndsInZ)
    }

    @Test("a sorted run's records keep the form, and the text")
    func sortedRuns() throws {
        var event = Event(id: "e", start: try Self.read("2024-06-12 08:00:00.25+08:00"), title: "t")
        event.end = try Self.read("2024-06-12T09:00:00+0800")
        var bytes: [UInt8] = []
        EventRunCodec.append(event, to: &bytes)
        let (decoded, _) = try EventRunCodec.decode(bytes, at: 0)
        #expect(decoded == event)
        #expect(
            decoded.start.rawForm == .spaceOffset
                && decoded.start.raw == "2024-06-12 08:00:00.25+08:00")
        #expect(decoded.end?.rawText == "2024-06-12T09:00:00+0800")
    }

    @Test("of random RFC 3339 texts, exactly those in a form are kept by it, and given back")
    func randomTexts() throws {
        var random = SplitMix64(seed: 0x3339)
        func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
        func two(_ n: UInt64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var formed = 0
        for _ in 0..<3_000 {
            let year = 1 + random.next() % 9999
            let date =
                String(repeating: "0", count: 4 - String(year).count) + "\(year)-"
                + two(1 + random.next() % 12) + "-" + two(1 + random.next() % 28)
            let separator = pick(["T", " ", "t"])
            let time =
                two(random.next() % 24) + ":" + two(random.next() % 60) + ":"
                + two(random.next() % 60)
            let digits = Int(random.next() % 10)
            let point = pick([".", ","])
            let fraction =
                digits == 0
                ? "" : point + String((0..<digits).map { _ in pick(Array("0123456789")) })
            let suffix = pick(["Z", "z", "+08:00", "-05:30", "+0800", "+08", "-00:00", "+00:00"])
            let text = date + separator + time + fraction + suffix
            // Written as the canonical rendering would write it: the oracle for the form.
            let rendered =
                separator != "t" && (digits == 0 || point == ".")
                && ["Z", "+08:00", "-05:30", "+00:00"].contains(suffix)
            let value = try Self.read(text)
            #expect((value.rawForm != nil) == rendered, "\(text)")
            #expect(value.raw == text)
            if rendered { formed += 1 }
            // Written out, a form gives the bytes the text as a string gives.
            var asText = value
            asText.raw = text
            var bytes: [[UInt8]] = [[], []]
            for (i, v) in [value, asText].enumerated() {
                CanonicalEncoder.append(Event(id: "e", start: v, title: ""), to: &bytes[i])
            }
            #expect(bytes[0] == bytes[1], "\(text)")
        }
        #expect(formed > 300)
    }
}
