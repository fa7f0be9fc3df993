import Testing

@testable import TimelineKit

@Suite("HeaderWords (what a column's header says)")
struct HeaderWordsTests {
    @Test("a header's words, split as written by hand")
    func words() {
        let cases: [(String, [String])] = [
            ("", []), ("time", ["time"]), ("startDate", ["start", "date"]),
            ("GMTTimestamp", ["gmt", "timestamp"]), ("Order-ID #2", ["order", "id", "2"]),
            ("Started Date", ["started", "date"]), ("created_at", ["created", "at"]),
            ("ABC", ["abc"]), ("aB", ["a", "b"]), ("  Posted  Date\t", ["posted", "date"]),
            ("Datum (UTC)", ["datum", "utc"]), ("Buchungstag", ["buchungstag"]),
            ("下单时间 Date", ["下单时间", "date"]),
        ]
        for (header, expected) in cases {
            #expect(HeaderWords.orderedWords(header) == expected, "\(header.debugDescription)")
        }
    }

    @Test("ASCII headers split byte by byte as character by character")
    func asciiAgreesWithCharacters() {
        // Seeded: letters of both cases, digits and separators, so that camel-case runs,
        // capital runs and separators meet at every position.
        var random = SplitMix64(seed: 0x4EAD_E125)
        let alphabet = Array("aAbBzZ09 _-#().:/\t\r\nGMTxyQ")
        for _ in 0..<5_000 {
            let count = Int(random.next() % 16)
            let header = String(
                (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            #expect(
                HeaderWords.orderedWords(header) == HeaderWords.wordsByCharacter(header),
                "\(header.debugDescription)")
        }
    }

    @Test("a word in another script is found within the text; an ASCII header holds none")
    func otherScripts() {
        #expect(HeaderWords.names(HeaderWords.creationWords, in: "订单创建时间"))
        #expect(HeaderWords.names(HeaderWords.timeWords, in: "取引日"))
        #expect(HeaderWords.names(["时间"], in: "time") == false)
        #expect(HeaderWords.names(["time"], in: "Time (UTC)"))
        #expect(HeaderWords.names(["time"], in: "Timestamp") == false)
    }
}
