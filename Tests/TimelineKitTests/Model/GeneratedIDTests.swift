import Testing

@testable import TimelineKit

@Suite("Generated ids")
struct GeneratedIDTests {
    @Test("base name, colon and record number; read back only in exactly that form")
    func generatedIDs() {
        #expect(Event.generatedIDPrefix(file: "data/in/orders.csv") == "orders.csv:")
        #expect(Event.generatedIDPrefix(file: "-") == "-:")
        let cases: [(String, Int, String)] = [
            ("orders.csv:", 1, "orders.csv:1"), ("orders.csv:", 0, "orders.csv:0"),
            ("-:", 1_000_000, "-:1000000"),
            ("订单.csv:", 42, "订单.csv:42"), ("a:", -7, "a:-7"),
            ("orders-1000000.csv:", 999_999, "orders-1000000.csv:999999"),
            ("x:", Int.max, "x:9223372036854775807"),
        ]
        for (prefix, record, expected) in cases {
            let id = Event.generatedID(prefix: prefix, record: record)
            #expect(id == expected)
            #expect(id.utf8.count == expected.utf8.count)
        }
        func reads(_ id: String, _ prefix: String, _ record: Int) -> Bool {
            id.withByteView { Event.generatedRecord($0, prefix: Array(prefix.utf8)) } == record
        }
        #expect(reads("orders.csv:12", "orders.csv:", 12))
        #expect(!reads("orders.csv:12", "orders.csv:", 13))
        #expect(!reads("orders.csv:012", "orders.csv:", 12))  // a leading zero is another string
        #expect(!reads("orders.csv:", "orders.csv:", 0))
        #expect(!reads("orders.csv:1x", "orders.csv:", 1))
        #expect(!reads("other.csv:12", "orders.csv:", 12))
        #expect(reads("orders.csv:0", "orders.csv:", 0))
        // What generatedID writes reads back as its record; 19 digits are more than a record.
        let written = Event.generatedID(prefix: "a/b:", record: 123_456_789_012_345_678)
        #expect(
            written.withByteView { Event.generatedRecord($0, prefix: Array("a/b:".utf8)) }
                == 123_456_789_012_345_678)
        let long = "x:1234567890123456789"
        #expect(long.withByteView { Event.generatedRecord($0, prefix: Array("x:".utf8)) } == nil)
    }
}
