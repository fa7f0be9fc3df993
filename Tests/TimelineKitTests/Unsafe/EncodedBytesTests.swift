import Testing

@testable import TimelineKit

@Suite("EncodedBytes (a batch's bytes, written in place)")
struct EncodedBytesTests {
    /// One way of adding bytes, and the same bytes added to a plain array (the oracle).
    enum Step {
        case write([UInt8], room: Int)
        case byte(UInt8)
        case array([UInt8])
    }

    static func steps(_ count: Int, seed: UInt64) -> [Step] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let bytes = (0..<Int(random.next() % 300)).map { _ in
                UInt8(truncatingIfNeeded: random.next())
            }
            switch random.next() % 3 {
            case 0: return .write(bytes, room: bytes.count + Int(random.next() % 70_000))
            case 1: return .byte(UInt8(truncatingIfNeeded: random.next()))
            default: return .array(bytes)
            }
        }
    }

    @Test(
        "what is written, in any mix of ways, is what an array appended to holds",
        arguments: [0, 1, 100, 1 << 17])
    func matchesAnArray(capacity: Int) {
        for seed in 0..<20 as Range<UInt64> {
            var bytes = EncodedBytes(capacity: capacity)
            var expected: [UInt8] = []
            for step in Self.steps(40, seed: seed) {
                switch step {
                case .write(let b, let room):
                    bytes.write(b, capacity: room) { b, w in
                        b.withUnsafeBufferPointer { w.bytes(ByteView(lending: $0)) }
                    }
                    expected += b
                case .byte(let b):
                    bytes.write(b, capacity: 1) { b, w in w.byte(b) }
                    expected.append(b)
                case .array(let b):
                    bytes.appending { $0 += b }
                    expected += b
                }
                #expect(bytes.count == expected.count)
            }
            #expect(bytes.take() == expected, "seed \(seed)")
            #expect(bytes.count == 0)
            // Taken, it starts again from nothing.
            bytes.appending { $0.append(7) }
            #expect(bytes.take() == [7])
        }
    }

    @Test("room given back is not part of the bytes, and is written over next")
    func unusedRoom() {
        var bytes = EncodedBytes()
        bytes.write((), capacity: 10) { _, w in w.text("abc") }
        bytes.write((), capacity: 10) { _, w in w.text("de") }
        #expect(bytes.take() == Array("abcde".utf8))
    }
}
