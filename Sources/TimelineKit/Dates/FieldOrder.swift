/// Which of two leading numeric fields is the day in `12/06/2024`-style dates
/// (`ReadOptions.dayFirst`).
package enum FieldOrder: String, Sendable, Hashable {
    /// `12/06/2024` is 12 June.
    case dayFirst
    /// `06/12/2024` is 12 June.
    case monthFirst
}

/// Decides day-first vs month-first from the values of one column or stream.
///
/// Looks at up to `window` values (the CLI uses 1,000): a value whose first field exceeds
/// 12 shows day-first, one whose second field exceeds 12 shows month-first. The result is
/// nil when nothing decided it or when the values contradict each other.
package struct FieldOrderDetector: Sendable {
    package static let defaultWindow = 1000
    package private(set) var dayFirstEvidence = 0
    package private(set) var monthFirstEvidence = 0
    package private(set) var ambiguousValues = 0

    package init() {}

    package mutating func observe(_ value: String) {
        value.withByteView { observe(bytes: $0) }
    }

    package mutating func observe(bytes: ByteView) {
        switch CatalogueSyntax.numericFieldOrderEvidence(bytes) {
        case .dayFirst?: dayFirstEvidence += 1
        case .monthFirst?: monthFirstEvidence += 1
        case nil: break
        }
        if CatalogueSyntax.isAmbiguousNumericDate(bytes) { ambiguousValues += 1 }
    }

    /// The order the evidence shows, or nil (none, or contradictory).
    package var decided: FieldOrder? {
        if dayFirstEvidence > 0 && monthFirstEvidence == 0 { return .dayFirst }
        if monthFirstEvidence > 0 && dayFirstEvidence == 0 { return .monthFirst }
        return nil
    }

    package var isContradictory: Bool { dayFirstEvidence > 0 && monthFirstEvidence > 0 }

    /// Observes the time fields (start, end, recorded) of a mapped record.
    mutating func observe(timesOf record: FieldTexts) {
        for field in [MappedField.start, .end, .recorded] {
            if let text = record[field] { observe(text) }
        }
        for case let text? in record.eventTimes { observe(text) }
    }
}

/// Two-digit years: `00`–`68` are 2000–2068 and `69`–`99` are 1969–1999 (the POSIX
/// `strptime` `%y` rule). Fixed, so results never change with the date the tool runs on.
package enum TwoDigitYear {
    package static let pivot = 69

    package static func expand(_ yy: Int) -> Int { yy < pivot ? 2000 + yy : 1900 + yy }
}
