import Testing

@testable import TimelineKit

@Suite("ChunkedArray", .serialized)
struct ChunkedArrayTests {
    @Test("keeps order and values across chunk boundaries; changes elements in place")
    func appendReadModify() {
        var a = ChunkedArray<Int>()
        #expect(a.isEmpty)
        // 40,000 elements: the first chunk grows, then two full-size chunks (16,384 each).
        for i in 0..<40_000 { a.append(i * 3) }
        #expect(a.count == 40_000)
        #expect(a[0] == 0 && a[16_383] == 49_149 && a[16_384] == 49_152 && a[39_999] == 119_997)
        #expect(Array(a) == (0..<40_000).map { $0 * 3 })
        a[16_384] += 1
        #expect(a[16_384] == 49_153 && a[16_383] == 49_149)
        a[39_999] += 1  // in the chunk being filled
        #expect(a[39_999] == 119_998 && a[39_998] == 119_994)
        a[39_999] -= 1
        a.append(repeating: -1, count: 3)
        #expect(a.count == 40_003 && a[40_000] == -1 && a[40_002] == -1)
        a.append(repeating: 7, count: 0)
        #expect(a.count == 40_003)
    }

    @Test(
        "a chunk exactly full: the next element starts a new one; a copy does not see later changes"
    )
    func fullChunkBoundary() {
        var a = ChunkedArray<Int>()
        for i in 0..<32_768 { a.append(i) }
        #expect(a.count == 32_768 && a[32_767] == 32_767)
        let copy = a
        a.append(-5)
        a[0] = 99
        a[32_767] = 98
        #expect(a.count == 32_769 && a[32_768] == -5 && a[0] == 99 && a[32_767] == 98)
        #expect(copy.count == 32_768 && copy[0] == 0 && copy[32_767] == 32_767)
    }

    /// Counts the instances alive, to show the array releases what it holds exactly once.
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Tracked.alive += 1
        }
        deinit { Tracked.alive -= 1 }
    }

    @Test(
        "elements that own memory: each released once, when the last copy holding it goes; a change to a copy leaves the original"
    )
    func ownedElements() {
        do {
            var a = ChunkedArray<Tracked>()
            // Past the first chunk (16,384) into a second, partly filled.
            for i in 0..<20_000 { a.append(Tracked(i)) }
            #expect(Tracked.alive == 20_000)
            var copy = a
            copy[5] = Tracked(-5)  // copies the storage: the original keeps its element
            #expect(Tracked.alive == 20_001)
            #expect(a[5].value == 5 && copy[5].value == -5 && copy[19_999].value == 19_999)
            copy.append(Tracked(-1))
            #expect(a.count == 20_000 && copy.count == 20_001)
            var strings = ChunkedArray<String>()
            for i in 0..<100 { strings.append(String(repeating: "x", count: 20) + String(i)) }
            #expect(strings[99] == "xxxxxxxxxxxxxxxxxxxx99" && strings.count == 100)
        }
        #expect(Tracked.alive == 0)
    }

    @Test("an empty array and one that never leaves its first chunk release nothing twice")
    func smallAndEmpty() {
        do {
            let empty = ChunkedArray<Tracked>()
            #expect(empty.isEmpty && Array(empty).isEmpty)
            var small = ChunkedArray<Tracked>()
            for i in 0..<17 { small.append(Tracked(i)) }  // the first chunk grows once (16 → 32)
            #expect(small.map(\.value) == Array(0..<17))
        }
        #expect(Tracked.alive == 0)
    }
}
