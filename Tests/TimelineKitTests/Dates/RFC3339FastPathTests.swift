import Testing

@testable import TimelineKit

@Suite("RFC 3339 fast path")
struct RFC3339FastPathTests {
    static func general(_ text: String) -> (Instant, UTCOffset, Int)? {
        text.withByteView { bytes in
            var attempt = SyntaxAttempt()
            guard let f = ISO8601Syntax().parse(bytes, attempt: &attempt), let offset = f.offset,
                f.zoneName == nil
            else { return nil }
            return (Instant(local: f.local, offset: offset), offset, f.fractionDigits)
        }
    }

    static func fast(_ text: String) -> RFC3339FastPath.Match? {
        text.withByteView { RFC3339FastPath.parse($0) }
    }

    @Test(
        "whenever the fast path accepts a value, the general ISO parser reads the same instant, offset and digits"
    )
    func agreesWithGeneralParser() {
        var rng = SplitMix64(seed: 42)
        let alphabet = Array("0123456789-:T .,Z+z")
        var accepted = 0
        for _ in 0..<200_000 {
            // Start from a valid value, then mutate a few characters.
            let seconds = Int64(rng.next() % 8_000_000_000) - 2_000_000_000
            let offset = UTCOffset(seconds: (Int(rng.next() % 57) - 28) * 1800)
            let digits = Int(rng.next() % 10)
            let value = TimeValue(
                instant: Instant(seconds: seconds, nanoseconds: Int32(rng.next() % 1_000_000_000)),
                offset: offset, basis: .offset,
                fractionDigits: digits)
            var chars = Array(value.rfc3339)
            for _ in 0..<Int(rng.next() % 3) {
                chars[Int(rng.next() % UInt64(chars.count))] =
                    alphabet[Int(rng.next() % UInt64(alphabet.count))]
            }
            let text = String(chars)
            guard let f = Self.fast(text) else { continue }
            accepted += 1
            guard let g = Self.general(text) else {
                Issue.record("fast path accepted '\(text)' but the general parser did not")
                continue
            }
            #expect(f.instant == g.0 && f.offset == g.1 && f.fractionDigits == g.2, "\(text)")
        }
        #expect(accepted > 50_000)  // about half the mutated values stay valid
    }

    @Test(
        "shapes it leaves to the general parsers",
        arguments: [
            "2024-06-12T08:00:00", "2024-06-12T24:00:00Z", "2024-06-12T08:00:00+05:45:30",
            "2024-06-12T08:00:00Z[Asia/Tokyo]",
            "2024-02-30T08:00:00Z", "2024-06-12T08:00:00.1234567890Z", "2024-06-12T08:00:00+19:00",
            "2024-06-12T08:00:60Z",
            "20240612T080000Z", "2024-06-12T08:00Z", "2024-06-12T08:00:00+0",
            "0000-01-01T00:00:00Z",
        ])
    func declines(text: String) {
        #expect(Self.fast(text) == nil)
    }
}
