import Testing

@testable import TimelineKit

@Suite("ChunkedArray")
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
        a.append(repeating: -1, count: 3)
        #expect(a.count == 40_003 && a[40_000] == -1 && a[40_002] == -1)
        a.append(repeating: 7, count: 0)
        #expect(a.count == 40_003)
    }
}
