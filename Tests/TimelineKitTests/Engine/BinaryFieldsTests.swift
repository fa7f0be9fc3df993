import Testing

@testable import TimelineKit

@Suite("Binary record fields")
struct BinaryFieldsTests {
    @Test("an id is written as the byte string of its text, generated or given, and reads back")
    func identities() throws {
        let identities: [EventIdentity] = [
            .given(""), .given("SO-1"), .given("订单-7"),
            .generated(prefix: "orders.csv:", record: 1),
            .generated(prefix: "orders.csv:", record: 1_000_000),
            .generated(prefix: "订单.csv:", record: 42), .generated(prefix: "-:", record: -3),
            .generated(prefix: "x:", record: Int.max),
        ]
        for identity in identities {
            var written: [UInt8] = [0xAB]
            BinaryWriter.identity(identity, &written)
            var expected: [UInt8] = [0xAB]
            BinaryWriter.string(identity.text, &expected)
            #expect(written == expected, "\(identity)")
            var reader = BinaryReader(bytes: written, at: 1)
            #expect(try reader.string() == identity.text)
            #expect(reader.at == written.count)
        }
    }

    @Test("a time's source text is written as the byte string of its text, however it is held")
    func rawTexts() throws {
        let texts = [
            "2024-06-12T08:00:00+08:00", "2024-06-12 08:00:00.123Z", "2024-06-12T08:00:00.5-05:30",
            "2024-06-12t08:00:00z", "2024-06-12 08:00+08:00",
        ]
        let parser = DateParser()
        for text in texts {
            let read = try text.withByteView { parser.parse(bytes: $0) }.get()
            var value = read.value
            text.withByteView { value.setRaw($0, form: read.rawForm) }
            var written: [UInt8] = [0xAB]
            BinaryWriter.raw(of: value, &written)
            var expected: [UInt8] = [0xAB]
            BinaryWriter.string(text, &expected)
            #expect(written == expected, "\(text)")
        }
    }
}
