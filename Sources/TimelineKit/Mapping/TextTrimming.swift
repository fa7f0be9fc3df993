import Foundation

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
        while end > start, u[u.index(before: end)] == 0x20 || u[u.index(before: end)] == 0x09 {
            end = u.index(before: end)
        }
        return String(self[start..<end])
    }

    /// The cell without the guards spreadsheets and exporters add to keep it text: Excel's
    /// `="…"` and a leading `'` before a digit, sign or formula character (`'0123`,
    /// `'+86…`, `'=1+1`). Returned as is (no copy) when there are none, which is nearly
    /// always. (A trailing tab, WeChat's and Alipay's guard for long numbers, is trimmed
    /// with the spaces.)
    var withoutSpreadsheetGuards: String {
        guard utf8.first == 0x3D || utf8.first == 0x27 else { return self }
        let guarded = withByteView { v -> Bool in
            guard let first = v.first, first == 0x3D || first == 0x27, v.count >= 2 else {
                return false
            }
            if first == 0x3D { return v.count >= 3 && v[1] == 0x22 && v[v.count - 1] == 0x22 }
            let second = v[1]
            return (second >= 0x30 && second <= 0x39) || second == 0x2B || second == 0x2D
                || second == 0x3D || second == 0x40
        }
        guard guarded else { return self }
        return utf8.first == 0x3D ? String(dropFirst(2).dropLast()) : String(dropFirst())
    }

    /// A cell as mapping reads it: trimmed of spaces and tabs, then without spreadsheet
    /// guards. Its first and last bytes are looked at once, so the common clean cell costs
    /// one look, not one per rule.
    @inline(__always)
    var cleanedCell: String {
        let clean = withByteView { v -> Bool in
            guard let first = v.first, let last = v.last else { return true }
            return Self.isCleanCell(first: first, last: last)
        }
        return clean ? self : trimmingSpaces.withoutSpreadsheetGuards
    }

    /// Whether a cell that starts with `first` and ends with `last` is as `cleanedCell`
    /// leaves it: no space or tab to trim, no spreadsheet guard (`=` or `'`) to remove.
    @inline(__always)
    static func isCleanCell(first: UInt8, last: UInt8) -> Bool {
        first != 0x20 && first != 0x09 && first != 0x3D && first != 0x27 && last != 0x20
            && last != 0x09
    }
}

extension StringProtocol {
    /// `trimmingCharacters(in: .whitespaces)` (Unicode spaces and tabs, where `trimmingSpaces`
    /// trims ASCII ones only), without going through `NSString` when the text starts and
    /// ends with a printable ASCII character, as nearly every header does.
    var trimmingWhitespaces: String {
        let text = String(self)
        guard let first = text.utf8.first, let last = text.utf8.last,
            !(first > 0x20 && first < 0x80 && last > 0x20 && last < 0x80)
        else { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
