/// An array stored in fixed-size chunks: appending never moves what is stored. A plain
/// array that grows to millions of elements copies itself at every doubling and so touches
/// about twice its final memory (each new page a page fault); the validation tables that
/// keep an entry per event, and the buffer of a sort, are these arrays.
///
/// The chunks are raw memory the storage owns, so that appending is a uniqueness check and
/// one store: an array of arrays checks the outer array, then the inner one, through
/// accessors the compiler does not inline — several times the work, once per event. A value
/// type: the storage is shared by copies and copied before one of them changes.
struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    private var storage = Storage()

    private static var shift: Int { 14 }
    private static var chunkSize: Int { 1 << shift }

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { storage.count }
    var count: Int { storage.count }

    subscript(i: Int) -> Element {
        get {
            precondition(i >= 0 && i < storage.count, "ChunkedArray index out of range")
            return storage.address(i).pointee
        }
        _modify {
            precondition(i >= 0 && i < storage.count, "ChunkedArray index out of range")
            makeUnique()
            yield &storage.address(i).pointee
        }
    }

    mutating func append(_ element: Element) {
        makeUnique()
        let storage = self.storage
        let i = storage.count
        if i == storage.capacity { storage.grow() }
        storage.address(i).initialize(to: element)
        storage.count = i + 1
    }

    /// Appends `n` copies of `element`.
    mutating func append(repeating element: Element, count n: Int) {
        for _ in 0..<Swift.max(0, n) { append(element) }
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// The chunks and how many elements they hold, the first `count` initialized. The first
    /// chunk grows by doubling as a plain array does (most small tables never need a
    /// second); later ones are made full size at once.
    ///
    /// Its properties are read and changed only through a `ChunkedArray` that holds it
    /// uniquely while changing it (`makeUnique`), so no two accesses can overlap: checking
    /// each access at run time would cost more than the access.
    private final class Storage {
        @exclusivity(unchecked) var chunks: [UnsafeMutablePointer<Element>] = []
        @exclusivity(unchecked) var count = 0
        /// Elements the chunks have room for.
        @exclusivity(unchecked) private(set) var capacity = 0

        /// Where element `i` is (or goes, for `i == count`).
        @inline(__always)
        func address(_ i: Int) -> UnsafeMutablePointer<Element> {
            chunks[i >> ChunkedArray.shift] + (i & (ChunkedArray.chunkSize - 1))
        }

        /// Makes room for one more element (called when the chunks are full).
        func grow() {
            if chunks.isEmpty || capacity < ChunkedArray.chunkSize {
                let larger = chunks.isEmpty ? 16 : capacity * 2
                let first = UnsafeMutablePointer<Element>.allocate(capacity: larger)
                if let old = chunks.first {
                    first.moveInitialize(from: old, count: count)
                    old.deallocate()
                    chunks[0] = first
                } else {
                    chunks.append(first)
                }
                capacity = larger
            } else {
                chunks.append(.allocate(capacity: ChunkedArray.chunkSize))
                capacity += ChunkedArray.chunkSize
            }
        }

        /// A storage of its own with the same elements (each copied).
        func copy() -> Storage {
            let other = Storage()
            for i in 0..<count {
                if i == other.capacity { other.grow() }
                other.address(i).initialize(to: address(i).pointee)
                other.count = i + 1
            }
            return other
        }

        deinit {
            // Every chunk holds `chunkSize` but a lone first one, which may hold fewer.
            let chunkCapacity = Swift.min(capacity, ChunkedArray.chunkSize)
            var left = count
            for chunk in chunks {
                let used = Swift.min(left, chunkCapacity)
                chunk.deinitialize(count: used)
                chunk.deallocate()
                left -= used
            }
        }
    }
}

/// Copies never share what they change (`Storage` is copied first), so a `ChunkedArray` of
/// sendable elements is as safe to send as an `Array` of them.
extension ChunkedArray: @unchecked Sendable where Element: Sendable {}
