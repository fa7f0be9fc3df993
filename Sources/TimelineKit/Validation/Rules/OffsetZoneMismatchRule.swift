/// TZ106 (warning): an explicit offset that contradicts the zone named with it at that
/// instant (`-05:00` for New York in July). Found while reading; the offset is used.
enum OffsetZoneMismatchRule: RuleDeclaration {
    static let code = FindingCode.offsetZoneMismatch
    static let summary = "an offset that contradicts the zone named beside it"
    static let readingAdvice: String? =
        "explicit offsets that contradict the named zone at that instant; the offset was used — check which is right"
}

extension FindingCode {
    /// TZ106: an explicit offset that contradicts its zone.
    public static let offsetZoneMismatch = FindingCode("TZ106", name: "offset-zone-mismatch")
}
