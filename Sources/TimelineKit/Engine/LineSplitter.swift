/// Splits byte chunks into lines (LF, CRLF or lone CR), carrying a partial line across
/// chunks; the last line needs no terminator. Each line is lent to the caller as a view
/// into the chunk (or into the carried bytes when it spans two chunks).
struct LineSplitter {
    private var carry: [UInt8] = []
    private var skipLF = false

    mutating func split(_ chunk: [UInt8], _ body: (ByteView) -> Void) {
        chunk.withByteView { p in
            var i = 0
            let n = p.count
            if skipLF, n > 0, p[0] == 0x0A { i = 1 }
            skipLF = false
            var lineStart = i
            if !p.contains(0x0D) {
                // No CR in the chunk (the usual case): find each LF with memchr.
                while lineStart < n, let end = p.firstIndex(of: 0x0A, from: lineStart) {
                    emit(p[lineStart..<end], body)
                    lineStart = end + 1
                }
                if lineStart < n { carry += p[lineStart..<n].array }
                return
            }
            while i < n {
                let b = p[i]
                if b == 0x0A || b == 0x0D {
                    emit(p[lineStart..<i], body)
                    if b == 0x0D {
                        if i + 1 < n {
                            if p[i + 1] == 0x0A { i += 1 }
                        } else {
                            skipLF = true
                        }
                    }
                    lineStart = i + 1
                }
                i += 1
            }
            if lineStart < n { carry += p[lineStart..<n].array }
        }
    }

    /// Hands on a line, joined to the part carried over from the previous chunk if any.
    @inline(__always)
    private mutating func emit(_ tail: ByteView, _ body: (ByteView) -> Void) {
        if carry.isEmpty {
            body(tail)
        } else {
            carry += tail.array
            carry.withByteView(body)
            carry.removeAll(keepingCapacity: true)
        }
    }

    mutating func finish(_ body: (ByteView) -> Void) {
        if !carry.isEmpty { carry.withByteView(body) }
        carry.removeAll()
    }
}
