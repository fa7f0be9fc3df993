extension String {
    /// Calls `body` with the string's UTF-8 bytes: in place for a native string (a short one,
    /// stored inline, is lent from a copy on the stack); a string with no contiguous UTF-8 (one
    /// bridged from a foreign representation) is first made native by `withUTF8`.
    @inline(__always)
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
