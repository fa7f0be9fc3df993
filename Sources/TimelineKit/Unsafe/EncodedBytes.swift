/// The bytes a batch's events are encoded into (`EventRecordEncoding`), written in place
/// through `FixedWriter`. The storage is kept longer than what was written, so the room an
/// encoder asks for is usually there already: an array would have to be lengthened for each
/// record (its new bytes copied in) and shortened again after it. Beyond `count` the storage
/// holds bytes never written, or written for room that was not used; `take()` cuts them off.
struct EncodedBytes {
    private var storage: [UInt8] = []
    /// The bytes written.
    private(set) var count = 0

    /// Room for `capacity` bytes, made ahead.
    init(capacity: Int = 0) {
        reserve(capacity)
    }

    /// Lets `body` write at most `capacity` bytes after those written. `value` is passed to
    /// `body` rather than captured by it, which would copy it.
    @inline(__always)
    mutating func write<Value>(
        _ value: Value, capacity: Int, _ body: (Value, inout FixedWriter) -> Void
    ) {
        reserve(capacity)
        let start = count
        count += storage.withUnsafeMutableBufferPointer { all in
            FixedWriter.writing(
                value, into: UnsafeMutableBufferPointer(rebasing: all[start..<(start + capacity)]),
                body)
        }
    }

    /// Lends the bytes written as an array, for writers that append to one.
    mutating func appending(_ body: (inout [UInt8]) -> Void) {
        storage.removeLast(storage.count - count)
        body(&storage)
        count = storage.count
    }

    /// Takes the bytes written, leaving this empty.
    mutating func take() -> [UInt8] {
        var bytes: [UInt8] = []
        swap(&bytes, &storage)
        bytes.removeLast(bytes.count - count)
        count = 0
        return bytes
    }

    /// Makes room for `capacity` more bytes: new storage, at least twice as long, when what
    /// is left is too short.
    ///
    /// The storage's bytes beyond `count` are left as the allocation found them, not filled
    /// (which would cost as much as writing them): `UInt8` is a trivial type, and those bytes
    /// are never read, only written over, until `take()` cuts them off.
    private mutating func reserve(_ capacity: Int) {
        guard count + capacity > storage.count else { return }
        let size = max(count + capacity, 2 * storage.count)
        let written = count
        storage = storage.withUnsafeBytes { old in
            [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
                    from: old.baseAddress ?? UnsafeRawPointer(buffer.baseAddress!),
                    byteCount: written)
                initialized = size
            }
        }
    }
}
