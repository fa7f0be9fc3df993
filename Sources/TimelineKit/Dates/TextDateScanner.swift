/// Finds timestamps inside a line of text — a log line, an access log — by shape, for
/// `timeline dates --in-text`; the date engine then reads each one found. By default only
/// shapes that cannot be mistaken for other numbers: ISO 8601/RFC 3339 with a time (also
/// `2024-06-12 08:11:17,123` as logging libraries write it), RFC 2822, the Common Log
/// Format's `01/Jun/2024:00:00:01 +0800`; syslog's `Jun 12 08:11:17` only given its year;
/// epoch numbers (10 or 13 digits) only when asked; and the user's patterns.
package struct TextDateScanner {
    /// What a match looks like, and so how the engine is given it.
    package enum Shape: Hashable, Sendable {
        case iso, rfc2822, commonLog, syslog, epoch
        /// The user's `--date-format` pattern at this index.
        case pattern(Int)
    }

    /// Syslog times are read in this year (they carry none); nil leaves them alone.
    package var syslogYear: Int?
    package var epochs = false
    package var patterns: [DatePattern] = []

    package init(syslogYear: Int? = nil, epochs: Bool = false, patterns: [DatePattern] = []) {
        self.syslogYear = syslogYear
        self.epochs = epochs
        self.patterns = patterns
    }

    /// The timestamps in `line`, in order, none overlapping.
    package func matches(in line: ByteView) -> [(range: Range<Int>, shape: Shape)] {
        var found: [(range: Range<Int>, shape: Shape)] = []
        forEachMatch(in: line) { found.append(($0, $1)) }
        return found
    }

    /// Calls `body` with each timestamp in `line`, in order. A timestamp starts and ends at a
    /// word boundary, so each word is tried once, at its start, after a cheap look at the
    /// bytes that tell the shapes apart.
    @inline(__always)
    package func forEachMatch(in line: ByteView, _ body: (Range<Int>, Shape) -> Void) {
        guard patterns.isEmpty && !epochs else { return forEachMatchAnywhere(in: line, body) }
        // Every built-in shape has a time, so a colon within `Self.colonReach` bytes of its
        // start: only the words just before each colon are tried.
        var from = 0
        var colon = 0
        let n = line.count
        while colon < n, let c = line.firstIndex(of: 0x3A, from: colon) {
            var i = max(from, c - Self.colonReach)
            var matched = false
            while i < c {
                if Self.isWordByte(line[i]), i == 0 || !Self.isWordByte(line[i - 1]),
                    let (end, shape) = match(line, at: i), end > c,
                    end == n || !Self.isWordByte(line[end])
                {
                    body(i..<end, shape)
                    from = end
                    colon = end
                    matched = true
                    break
                }
                i += 1
            }
            if !matched { colon = c + 1 }
        }
    }

    /// The farthest a built-in shape's first colon lies from its start (`Wed, 12 Jun 2024 08:`).
    private static let colonReach = 20

    /// `forEachMatch` trying every word (for the user's patterns and epoch numbers, which may
    /// have no colon).
    private func forEachMatchAnywhere(in line: ByteView, _ body: (Range<Int>, Shape) -> Void) {
        var i = 0
        let n = line.count
        while i < n {
            guard Self.isWordByte(line[i]) else {
                i += 1
                continue
            }
            if let (end, shape) = match(line, at: i), end == n || !Self.isWordByte(line[end]) {
                body(i..<end, shape)
                i = end
                continue
            }
            while i < n, Self.isWordByte(line[i]) { i += 1 }
        }
    }

    private func match(_ p: ByteView, at i: Int) -> (Int, Shape)? {
        for (k, pattern) in patterns.enumerated() {
            if let length = pattern.prefixLength(of: p[i..<p.count]), length > 0 {
                return (i + length, .pattern(k))
            }
        }
        let n = p.count
        if Self.isDigit(p[i]) {
            if i + 4 < n, p[i + 4] == 0x2D, let end = Self.iso(p, i) { return (end, .iso) }
            if i + 2 < n, p[i + 2] == 0x2F, let end = Self.commonLog(p, i) {
                return (end, .commonLog)
            }
            if i + 2 < n, p[i + 1] == 0x20 || p[i + 2] == 0x20, let end = Self.rfc2822(p, i) {
                return (end, .rfc2822)
            }
            if epochs, let end = Self.epoch(p, i) { return (end, .epoch) }
            return nil
        }
        guard i + 3 < n, p[i + 3] == 0x2C || p[i + 3] == 0x20 else { return nil }
        if p[i + 3] == 0x2C, let end = Self.rfc2822(p, i) { return (end, .rfc2822) }
        if syslogYear != nil, let end = Self.syslog(p, i) { return (end, .syslog) }
        return nil
    }

    /// The text the engine reads for a match: as found, but a syslog time with its year
    /// put in (`Jun 12 2024 08:11:17`, read by `syslogPattern`).
    package func engineText(_ p: ByteView, _ range: Range<Int>, _ shape: Shape) -> [UInt8] {
        let text = p[range].array
        guard shape == .syslog, let year = syslogYear else { return text }
        // "Jun 12 08:11:17" / "Jun  5 08:11:17": month, day, year, time.
        let month = text[0..<3]
        let rest = text[4...].drop { $0 == 0x20 }
        let day = rest.prefix { Self.isDigit($0) }
        let time = rest.dropFirst(day.count + 1)
        return Array(month) + [0x20] + (day.count == 1 ? [0x30] : []) + Array(day) + [0x20]
            + Array(String(year).utf8) + [0x20] + Array(time)
    }

    /// The pattern the engine reads a match of `shape` with; nil for shapes its own syntaxes
    /// read (ISO 8601, RFC 2822, epoch).
    package func pattern(for shape: Shape) -> DatePattern? {
        switch shape {
        case .iso, .rfc2822, .epoch: return nil
        case .commonLog: return Self.extraPatterns[0]
        case .syslog: return Self.extraPatterns[1]
        case .pattern(let k): return patterns[k]
        }
    }

    /// The patterns the engine needs besides its own syntaxes for these shapes.
    package static let extraPatterns: [DatePattern] = [
        try! DatePattern("%d/%b/%Y:%H:%M:%S %z"),  // the Common Log Format
        try! DatePattern("%b %d %Y %H:%M:%S"),  // syslog, its year put in
    ]

    // MARK: Shapes

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isWordByte(_ b: UInt8) -> Bool {
        isDigit(b) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A)
    }

    private static func digits(_ p: ByteView, _ i: Int, _ count: Int) -> Int? {
        guard i + count <= p.count else { return nil }
        for k in i..<(i + count) where !isDigit(p[k]) { return nil }
        return i + count
    }

    private static func byte(_ p: ByteView, _ i: Int, _ b: UInt8) -> Int? {
        i < p.count && p[i] == b ? i + 1 : nil
    }

    private static let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ].map { Array($0.utf8) }
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map {
        Array($0.utf8)
    }

    private static func word(_ p: ByteView, _ i: Int, in words: [[UInt8]]) -> Int? {
        guard i + 3 <= p.count else { return nil }
        for w in words where p[i] == w[0] && p[i + 1] == w[1] && p[i + 2] == w[2] { return i + 3 }
        return nil
    }

    /// `HH:MM:SS` (`HH:MM` when `secondsOptional`).
    private static func clock(_ p: ByteView, _ i: Int, secondsOptional: Bool) -> Int? {
        guard let h = digits(p, i, 2), let c = byte(p, h, 0x3A), let m = digits(p, c, 2) else {
            return nil
        }
        guard let c2 = byte(p, m, 0x3A), let s = digits(p, c2, 2) else {
            return secondsOptional ? m : nil
        }
        return s
    }

    /// `±HHMM` or `±HH:MM`.
    private static func offset(_ p: ByteView, _ i: Int) -> Int? {
        guard i < p.count, p[i] == 0x2B || p[i] == 0x2D, let h = digits(p, i + 1, 2) else {
            return nil
        }
        if let m = digits(p, h, 2) { return m }
        if let c = byte(p, h, 0x3A), let m = digits(p, c, 2) { return m }
        return nil
    }

    /// `YYYY-MM-DD[T ]HH:MM[:SS[.,]fff][Z|±HH[:]MM]`: a date with a time.
    static func iso(_ p: ByteView, _ i: Int) -> Int? {
        guard let y = digits(p, i, 4), let d1 = byte(p, y, 0x2D), let mo = digits(p, d1, 2),
            let d2 = byte(p, mo, 0x2D),
            let d = digits(p, d2, 2), d < p.count, p[d] == 0x54 || p[d] == 0x20,
            var end = clock(p, d + 1, secondsOptional: true)
        else { return nil }
        if end < p.count, p[end] == 0x2E || p[end] == 0x2C, end + 1 < p.count, isDigit(p[end + 1]) {
            end += 1
            while end < p.count, isDigit(p[end]) { end += 1 }
        }
        if end < p.count, p[end] == 0x5A { return end + 1 }
        return offset(p, end) ?? end
    }

    /// `DD/Mon/YYYY:HH:MM:SS ±HHMM` (the Common Log Format).
    static func commonLog(_ p: ByteView, _ i: Int) -> Int? {
        guard let d = digits(p, i, 2), let s1 = byte(p, d, 0x2F), let m = word(p, s1, in: months),
            let s2 = byte(p, m, 0x2F),
            let y = digits(p, s2, 4), let c = byte(p, y, 0x3A),
            let t = clock(p, c, secondsOptional: false), let sp = byte(p, t, 0x20)
        else { return nil }
        return offset(p, sp)
    }

    /// `[Ddd, ]D Mon YYYY HH:MM[:SS] ZONE` (RFC 2822: a numeric offset, or GMT/UT/UTC or a
    /// US zone's letters).
    static func rfc2822(_ p: ByteView, _ i: Int) -> Int? {
        var at = i
        if let w = word(p, i, in: weekdays) {
            guard let comma = byte(p, w, 0x2C), let sp = byte(p, comma, 0x20) else { return nil }
            at = sp
        }
        guard let d = digits(p, at, 2) ?? digits(p, at, 1), let s1 = byte(p, d, 0x20),
            let m = word(p, s1, in: months),
            let s2 = byte(p, m, 0x20), let y = digits(p, s2, 4), let s3 = byte(p, y, 0x20),
            let t = clock(p, s3, secondsOptional: true),
            let s4 = byte(p, t, 0x20)
        else { return nil }
        if let end = offset(p, s4) { return end }
        var end = s4
        while end < p.count, end - s4 < 3, p[end] >= 0x41, p[end] <= 0x5A { end += 1 }
        return end - s4 >= 2 ? end : nil
    }

    /// `Mon DD HH:MM:SS`, the day space-padded (`Jun  5`).
    static func syslog(_ p: ByteView, _ i: Int) -> Int? {
        guard let m = word(p, i, in: months), let s = byte(p, m, 0x20) else { return nil }
        let dayStart = s < p.count && p[s] == 0x20 ? s + 1 : s
        guard let d = digits(p, dayStart, 2) ?? digits(p, dayStart, 1),
            dayStart == s || d == dayStart + 1, let s2 = byte(p, d, 0x20)
        else { return nil }
        return clock(p, s2, secondsOptional: false)
    }

    /// 10 or 13 digits (epoch seconds or milliseconds), not part of a longer number or a
    /// decimal.
    static func epoch(_ p: ByteView, _ i: Int) -> Int? {
        guard i == 0 || p[i - 1] != 0x2E else { return nil }
        var end = i
        while end < p.count, isDigit(p[end]) { end += 1 }
        guard end - i == 10 || end - i == 13 else { return nil }
        if end < p.count, p[end] == 0x2E, end + 1 < p.count, isDigit(p[end + 1]) { return nil }
        return end
    }
}
