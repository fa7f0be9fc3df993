/// An array stored in fixed-size chunks: appending never moves what is stored. A plain
/// array that grows to millions of elements copies itself at every doubling and so touches
/// about twice its final memory (each new page a page fault); the validation tables that
/// keep an entry per event are these arrays.
struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    private var chunks: [[Element]] = []
    private(set) var count = 0

    private static var shift: Int { 14 }
    private static var chunkSize: Int { 1 << shift }

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> Element {
        get {
            precondition(i >= 0 && i < count, "ChunkedArray index out of range")
            return chunks[i >> Self.shift][i & (Self.chunkSize - 1)]
        }
        // In place (a getter and setter pair would copy the element out and back).
        _modify {
            precondition(i >= 0 && i < count, "ChunkedArray index out of range")
            yield &chunks[i >> Self.shift][i & (Self.chunkSize - 1)]
        }
    }

    /// The first chunk grows as a plain array does (most small tables never need a second);
    /// later ones are made full size at once.
    mutating func append(_ element: Element) {
        if count & (Self.chunkSize - 1) == 0 {
            var chunk: [Element] = []
            if !chunks.isEmpty { chunk.reserveCapacity(Self.chunkSize) }
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Appends `n` copies of `element`.
    mutating func append(repeating element: Element, count n: Int) {
        for _ in 0..<Swift.max(0, n) { append(element) }
    }
}
