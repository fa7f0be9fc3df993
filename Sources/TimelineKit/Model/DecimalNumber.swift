/// An exact decimal number: an integer coefficient and a count of fraction digits.
///
/// Amounts are never binary floating point. `-12.50` is coefficient -1250, scale 2, and is
/// written back as `-12.50`; sums align scales and are exact.
public struct DecimalNumber: Hashable, Sendable, CustomStringConvertible {
    /// The digits as an integer: `-12.50` has coefficient -1250.
    public private(set) var coefficient: Int128
    /// The number of fraction digits: `-12.50` has scale 2.
    public private(set) var scale: Int

    /// Zero, with no fraction digits.
    public static let zero = DecimalNumber(coefficient: 0, scale: 0)
    /// At most this many fraction digits are accepted.
    public static let maximumScale = 18

    /// `coefficient` × 10^−`scale`.
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
        if index < bytes.endIndex,
            bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")
        {
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

    /// Below zero.
    public var isNegative: Bool { coefficient < 0 }

    /// The same magnitude with the other sign.
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
        FixedWriter.string(capacity: textLengthBound) { write(to: &$0) }
    }

    /// The most bytes `description` can take: a sign, a point, and the digits of the
    /// coefficient (at most 39) or of the scale's zeros and one before the point.
    var textLengthBound: Int { 2 + max(39, scale + 1) }

    /// Writes `description`: digits worked out in a machine word (the coefficient of any
    /// real amount fits in 64 bits) rather than through `String(Int128)` and an insert.
    func write(to w: inout FixedWriter) {
        let magnitude = coefficient.magnitude
        if magnitude <= UInt128(UInt64.max) {
            Self.write(UInt64(magnitude), negative: coefficient < 0, scale: scale, to: &w)
        } else {
            Self.write(magnitude, negative: coefficient < 0, scale: scale, to: &w)
        }
    }

    /// `magnitude` with `scale` fraction digits (zeros before its digits when it has fewer),
    /// written from the last digit back in room counted beforehand.
    @inline(__always)
    private static func write<M: UnsignedInteger & FixedWidthInteger>(
        _ magnitude: M, negative: Bool, scale: Int, to w: inout FixedWriter
    ) {
        var digitCount = 1
        var rest = magnitude / 10
        while rest > 0 {
            digitCount += 1
            rest /= 10
        }
        let fraction = max(scale, 0)
        let integerDigits = max(digitCount - fraction, 1)
        let length = (negative ? 1 : 0) + integerDigits + (fraction > 0 ? 1 + fraction : 0)
        w.withRoom(for: length) { room in
            var m = magnitude
            var i = length
            for _ in 0..<fraction {
                i -= 1
                room[i] = 0x30 &+ UInt8(truncatingIfNeeded: m % 10)
                m /= 10
            }
            if fraction > 0 {
                i -= 1
                room[i] = UInt8(ascii: ".")
            }
            repeat {
                i -= 1
                room[i] = 0x30 &+ UInt8(truncatingIfNeeded: m % 10)
                m /= 10
            } while m > 0
            if negative { room[0] = UInt8(ascii: "-") }
        }
    }
}

extension DecimalNumber: Comparable {
    public static func < (a: DecimalNumber, b: DecimalNumber) -> Bool {
        let scale = max(a.scale, b.scale)
        if let x = a.rescaled(to: scale), let y = b.rescaled(to: scale) { return x < y }
        return a.coefficient < b.coefficient  // unreachable in practice: 38 digits
    }
}
