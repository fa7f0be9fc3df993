extension String {
    /// Calls `body` with the string's UTF-8 bytes: in place when the string has storage to
    /// lend; a short string is stored inline and has none (`utf8.withContiguousStorageIfAvailable`
    /// answers nil for it), so `withUTF8` copies it to the stack — no heap allocation either way.
    @inline(__always)
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
