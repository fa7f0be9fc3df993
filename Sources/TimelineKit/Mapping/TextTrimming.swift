extension String {
    /// The string without leading and trailing ASCII spaces and tabs — returned as is (no
    /// copy) when there are none, which is nearly always. Foundation's `trimmingCharacters`
    /// goes through `NSString` and dominated the cost of mapping a CSV row.
    @inline(__always)
    var trimmingSpaces: String {
        let padded = withByteView { v in
            guard let first = v.first, let last = v.last else { return false }
            return first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09
        }
        guard padded else { return self }
        let u = utf8
        var start = u.startIndex
        var end = u.endIndex
        while start < end, u[start] == 0x20 || u[start] == 0x09 { start = u.index(after: start) }
        while end > start, u[u.index(before: end)] == 0x20 || u[u.index(before: end)] == 0x09 { end = u.index(before: end) }
        return String(self[start..<end])
    }
}
