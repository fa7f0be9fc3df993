extension UnsafeBufferPointer where Element == Event {
    /// Calls `body` with a pointer to each event, whose fields are then read in place: a
    /// `for` loop, the buffer's subscript (a getter) or even a `borrowing` parameter copies
    /// the whole event here, retaining each of its strings.
    @inline(__always)
    func forEachEvent(_ body: (UnsafePointer<Event>) -> Void) {
        guard let base = baseAddress else { return }
        for i in 0..<count { body(base + i) }
    }
}
