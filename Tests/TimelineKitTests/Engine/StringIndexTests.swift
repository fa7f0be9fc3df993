import Testing

@testable import TimelineKit

@Suite("StringIndex")
struct StringIndexTests {
    @Test(
        "numbers strings in first-seen order, the same string always the same number, across growth"
    )
    func numbering() {
        var index = StringIndex()
        // 10,000 distinct strings (the table starts with 64 slots and grows many times),
        // short and long, ASCII and not, each seen twice.
        let strings = (0..<10_000).map { i in
            i % 3 == 0
                ? "id-\(i)"
                : i % 3 == 1 ? "订单-\(i)-" + String(repeating: "x", count: i % 40) : "\(i)"
        }
        for (i, s) in strings.enumerated() {
            let (n, isNew) = index.number(of: s)
            #expect(n == i && isNew, "\(s)")
        }
        for (i, s) in strings.enumerated().reversed() {
            let (n, isNew) = index.number(of: s)
            #expect(n == i && !isNew, "\(s)")
            #expect(index.hash(at: n) == StringIndex.hash(s))
        }
        #expect(index.count == strings.count && index.strings == strings)
        // Equal text from different storage is the same string; "" is a string too.
        #expect(index.number(of: String("id-" + "3")).number == 3)
        #expect(index.number(of: "").isNew)
    }

    @Test("ByteStringIndex numbers byte strings in first-seen order and gives their text back")
    func byteStrings() {
        var index = ByteStringIndex()
        // Short, long, empty and non-ASCII, each seen twice, across many table growths.
        let strings =
            [""]
            + (0..<5_000).map { i in
                i % 2 == 0 ? "EV-\(i)" : "事件-\(i)-" + String(repeating: "y", count: i % 50)
            }
        func number(_ s: String) -> (number: Int, isNew: Bool) {
            Array(s.utf8).withByteView { index.number(of: $0, hash: StringIndex.hash(s)) }
        }
        for (i, s) in strings.enumerated() {
            let (n, isNew) = number(s)
            #expect(n == i && isNew, "\(s)")
        }
        for (i, s) in strings.enumerated().reversed() {
            let (n, isNew) = number(s)
            #expect(n == i && !isNew, "\(s)")
            #expect(index[n] == s)
        }
        #expect(index.count == strings.count)
        // A prefix of a stored string, and the same bytes plus one, are other strings.
        #expect(number("EV-1").isNew && number("EV-100").isNew == false && number("EV-1000x").isNew)
    }
}
