/// The fast path for the shape nearly every machine writes:
/// `YYYY-MM-DD(T|t| )HH:MM:SS[.f{1,9}](Z|z|±HH:MM|±HHMM|±HH)`.
///
/// Reads fixed positions and computes the instant directly, in plain integers, with no
/// intermediate structures and no heap allocation. Anything else — including invalid
/// values — returns nil and goes to the general parsers, so errors are reported in one place.
package enum RFC3339FastPath {
    package struct Match: Hashable, Sendable {
        package var instant: Instant
        package var offset: UTCOffset
        package var fractionDigits: Int
        /// The text's form when it is exactly the value's own rendering in one: `T` or a
        /// space, a `.` before any fraction, and `Z` or `±HH:MM` (not `-00:00`).
        package var form: TimeValue.RawForm?
    }

    @inline(__always)
    package static func parse(_ b: ByteView) -> Match? {
        let n = b.count
        guard n >= 20, b[4] == 0x2D, b[7] == 0x2D, b[13] == 0x3A, b[16] == 0x3A,
            b[10] == 0x54 || b[10] == 0x20 || b[10] == 0x74
        else { return nil }
        @inline(__always) func d(_ i: Int) -> UInt32 { UInt32(b[i] &- 0x30) }
        let y0 = d(0)
        let y1 = d(1)
        let y2 = d(2)
        let y3 = d(3)
        let m0 = d(5)
        let m1 = d(6)
        let d0 = d(8)
        let d1 = d(9)
        let h0 = d(11)
        let h1 = d(12)
        let i0 = d(14)
        let i1 = d(15)
        let s0 = d(17)
        let s1 = d(18)
        guard y0 < 10, y1 < 10, y2 < 10, y3 < 10, m0 < 10, m1 < 10, d0 < 10, d1 < 10, h0 < 10,
            h1 < 10, i0 < 10,
            i1 < 10, s0 < 10, s1 < 10
        else { return nil }
        let year = Int(y0 * 1000 + y1 * 100 + y2 * 10 + y3)
        let month = Int(m0 * 10 + m1)
        let day = Int(d0 * 10 + d1)
        let hour = Int(h0 * 10 + h1)
        let minute = Int(i0 * 10 + i1)
        let second = Int(s0 * 10 + s1)
        guard year >= 1, month >= 1, month <= 12, day >= 1, hour < 24, minute < 60, second < 60
        else { return nil }
        if day > 28 {
            guard day <= CivilDate.daysInMonth(year: year, month: month) else { return nil }
        }
        var i = 19
        var nanos = 0
        var digits = 0
        var rendered = b[10] != 0x74 && b[i] != 0x2C
        if b[i] == 0x2E || b[i] == 0x2C {
            i += 1
            while i < n, b[i] &- 0x30 < 10 {
                guard digits < 9 else { return nil }
                nanos = nanos * 10 + Int(b[i] &- 0x30)
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            var scale = digits
            while scale < 9 {
                nanos *= 10
                scale += 1
            }
        }
        guard i < n else { return nil }
        var offset = 0
        let sign = b[i]
        if sign == 0x5A || sign == 0x7A {
            rendered = rendered && sign == 0x5A
            i += 1
        } else {
            guard sign == 0x2B || sign == 0x2D, i + 3 <= n else { return nil }
            let oh0 = b[i + 1] &- 0x30
            let oh1 = b[i + 2] &- 0x30
            guard oh0 < 10, oh1 < 10 else { return nil }
            var minutes = 0
            i += 3
            rendered = rendered && i < n && b[i] == 0x3A
            if i < n {
                if b[i] == 0x3A { i += 1 }
                guard i + 2 == n else { return nil }
                let om0 = b[i] &- 0x30
                let om1 = b[i + 1] &- 0x30
                guard om0 < 6, om1 < 10 else { return nil }
                minutes = Int(om0) * 10 + Int(om1)
                i += 2
            }
            offset = (Int(oh0) * 10 + Int(oh1)) * 3600 + minutes * 60
            guard offset <= UTCOffset.maximumSeconds else { return nil }
            if sign == 0x2D {
                offset = -offset
                rendered = rendered && offset != 0
            }
        }
        guard i == n else { return nil }
        let days = CivilDate(uncheckedYear: year, month: month, day: day).daysSinceEpoch
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
        let form: TimeValue.RawForm? =
            !rendered
            ? nil
            : b[10] == 0x54
                ? (sign == 0x5A ? .tZ : .tOffset) : (sign == 0x5A ? .spaceZ : .spaceOffset)
        return Match(
            instant: Instant(unchecked: seconds, nanoseconds: Int32(nanos)),
            offset: UTCOffset(seconds: offset), fractionDigits: digits, form: form)
    }
}
