/// English month and weekday names, matched case-insensitively on bytes.
enum DateNames {
    static let months: [String] = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september",
        "october", "november", "december",
    ]
    static let weekdays: [String] = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ]
    static let monthAbbreviations = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    static let weekdayAbbreviations = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// The month (1…12) for a full name, a three-letter abbreviation, or `Sept`.
    static func month(_ word: ByteView) -> Int? {
        index(of: word, in: monthBytes, extra: word.count == 4 && matches(word, "sept") ? 9 : nil)
    }

    /// The ISO weekday (1 = Monday) for a full name, a 3-letter abbreviation, or `Tues`/`Thur(s)`.
    static func weekday(_ word: ByteView) -> Int? {
        if matches(word, "tues") { return 2 }
        if matches(word, "thur") || matches(word, "thurs") { return 4 }
        return index(of: word, in: weekdayBytes, extra: nil)
    }

    private static let monthBytes: [[UInt8]] = months.map { Array($0.utf8) }
    private static let weekdayBytes: [[UInt8]] = weekdays.map { Array($0.utf8) }

    private static func index(of word: ByteView, in names: [[UInt8]], extra: Int?) -> Int? {
        if let extra { return extra }
        guard word.count >= 3 else { return nil }
        for (i, name) in names.enumerated() where word.count == 3 || word.count == name.count {
            guard word.count <= name.count else { continue }
            var ok = true
            for k in 0..<word.count where word[k] | 0x20 != name[k] {
                ok = false
                break
            }
            if ok { return i + 1 }
        }
        return nil
    }

    static func matches(_ word: ByteView, _ lower: StaticString) -> Bool {
        guard word.count == lower.utf8CodeUnitCount else { return false }
        return lower.withByteView { name in
            for k in 0..<word.count where word[k] | 0x20 != name[k] { return false }
            return true
        }
    }

    /// `weekday` (1 = Monday) as an English name, for messages.
    static func weekdayName(_ weekday: Int) -> String {
        let name = weekdays[(weekday - 1) % 7]
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// `month` (1…12) as an English name, for messages.
    static func monthName(_ month: Int) -> String {
        let name = months[(month - 1) % 12]
        return name.prefix(1).uppercased() + name.dropFirst()
    }
}
