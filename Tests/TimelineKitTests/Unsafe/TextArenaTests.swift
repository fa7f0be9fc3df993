import Testing

@testable import TimelineKit

@Suite("TextArena")
struct TextArenaTests {
    @Test("texts come back as written, also after arenas are folded into one")
    func foldedArenas() {
        var run = TextArena()
        let first = run.append("2024-06-12T08:00:00+08:00")
        var later = TextArena()
        let a = later.append("")
        let b = later.append("订单 12")
        var last = TextArena()
        let c = last.append("x")
        let base = run.append(later)
        #expect(base == 25)
        let base2 = run.append(last)
        #expect(base2 == 25 + 9)  // "订单 12" is 9 bytes of UTF-8
        #expect(run[first] == "2024-06-12T08:00:00+08:00")
        #expect(run[TextArena.Text(start: a.start + base, count: a.count)] == "")
        #expect(run[TextArena.Text(start: b.start + base, count: b.count)] == "订单 12")
        #expect(run[TextArena.Text(start: c.start + base2, count: c.count)] == "x")
        // Appending to the folded arena goes on after the last text.
        let d = run.append("end")
        #expect(d.start == 35 && run[d] == "end")
    }

    @Test("a copy and its original append apart: neither overwrites the other's texts")
    func copiesAreIndependent() {
        var original = TextArena()
        let shared = original.append("shared")
        var copy = original
        let mine = original.append("original")
        let theirs = copy.append("copy!!!!")
        // Both continue after the shared text; the bytes are each arena's own.
        #expect(mine.start == 6 && theirs.start == 6)
        #expect(original[mine] == "original")
        #expect(copy[theirs] == "copy!!!!")
        #expect(original[shared] == "shared" && copy[shared] == "shared")
        // Many more appends on both sides, interleaved, still read back as written.
        var expected: [(TextArena.Text, String, Bool)] = []
        for i in 0..<2000 {
            let text = String(repeating: "x", count: i % 50) + "#\(i)"
            if i % 2 == 0 {
                expected.append((original.append(text), text, true))
            } else {
                expected.append((copy.append(text), text, false))
            }
        }
        for (place, text, inOriginal) in expected {
            #expect((inOriginal ? original[place] : copy[place]) == text)
        }
    }

    @Test(
        "compacting keeps every text at its place, over several chunks, one handed over, and a copy"
    )
    func compacted() {
        var arena = TextArena()
        var expected: [(TextArena.Text, String)] = []
        // Past one chunk (64 KiB), with texts of every length up to 300 bytes.
        for i in 0..<1_000 {
            let text = String(repeating: "é", count: i % 150) + "#\(i)"
            expected.append((arena.append(text), text))
        }
        var later = TextArena()
        let handed = later.append("handed over")
        let base = arena.append(later)
        expected.append(
            (TextArena.Text(start: handed.start + base, count: handed.count), "handed over"))
        expected.append((arena.append("after"), "after"))
        let copy = arena
        arena.compact()
        for (place, text) in expected {
            #expect(arena[place] == text)
            #expect(copy[place] == text)
        }
        // Appending after compacting goes on after the last text.
        let next = arena.append("next")
        #expect(next.start == copy.byteCount && arena[next] == "next")
        var empty = TextArena()
        empty.compact()
        #expect(empty.byteCount == 0)
        let a = empty.append("a")
        #expect(empty[a] == "a")
    }
}
