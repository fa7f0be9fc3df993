/// An exact decimal number: an integer coefficient and a count of fraction digits.
///
/// Amounts are never binary floating point. `-12.50` is coefficient -1250, scale 2, and is
/// written back as `-12.50`; sums align scales and are exact.
public struct DecimalNumber: Hashable, Sendable, CustomStringConvertible {
    public private(set) var coefficient: Int128
    public private(set) var scale: Int

    public static let zero = DecimalNumber(coefficient: 0, scale: 0)
    /// At most this many fraction digits are accepted.
    public static let maximumScale = 18

    public init(coefficient: Int128, scale: Int) {
        self.coefficient = coefficient
        self.scale = scale
    }

    /// Parses plain decimal text: an optional sign, digits, an optional `.` and digits
    /// (`12`, `-12.50`, `+0.5`, `.5`). No exponents, separators or symbols — those belong to
    /// the importers' amount readers. Returns nil for anything else or on overflow.
    public init?(_ text: some StringProtocol) {
        var coefficient: Int128 = 0
        var scale = 0
        var negative = false
        var seenDigit = false
        var seenPoint = false
        var index = text.utf8.startIndex
        let bytes = text.utf8
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index = bytes.index(after: index)
        }
        while index < bytes.endIndex {
            let b = bytes[index]
            if b >= 0x30 && b <= 0x39 {
                let (m, o1) = coefficient.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(Int128(b - 0x30))
                guard !o1, !o2 else { return nil }
                coefficient = s
                seenDigit = true
                if seenPoint { scale += 1 }
            } else if b == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            index = bytes.index(after: index)
        }
        guard seenDigit, scale <= DecimalNumber.maximumScale else { return nil }
        self.coefficient = negative ? -coefficient : coefficient
        self.scale = scale
    }

    public var isNegative: Bool { coefficient < 0 }

    public var negated: DecimalNumber { DecimalNumber(coefficient: -coefficient, scale: scale) }

    /// The exact sum, or nil on overflow (beyond 38 significant digits).
    public func adding(_ other: DecimalNumber) -> DecimalNumber? {
        let scale = max(self.scale, other.scale)
        guard let a = rescaled(to: scale), let b = other.rescaled(to: scale) else { return nil }
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : DecimalNumber(coefficient: sum, scale: scale)
    }

    private func rescaled(to newScale: Int) -> Int128? {
        var c = coefficient
        for _ in scale..<newScale {
            let (m, overflow) = c.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            c = m
        }
        return c
    }

    /// Plain decimal text with exactly `scale` fraction digits: `-12.50`, `0.05`, `3`.
    public var description: String {
        let magnitude = coefficient.magnitude
        var digits = String(magnitude)
        if scale > 0 {
            if digits.count <= scale {
                digits = String(repeating: "0", count: scale - digits.count + 1) + digits
            }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
        }
        return coefficient < 0 ? "-" + digits : digits
    }
}

extension DecimalNumber: Comparable {
    public static func < (a: DecimalNumber, b: DecimalNumber) -> Bool {
        let scale = max(a.scale, b.scale)
        if let x = a.rescaled(to: scale), let y = b.rescaled(to: scale) { return x < y }
        return a.coefficient < b.coefficient  // unreachable in practice: 38 digits
    }
}
