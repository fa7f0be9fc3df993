/// E008 (error): a record with a time outside the years 0001–9999 that RFC 3339 and the
/// canonical format can write: read as such (`9999-12-31T23:00:00-10:00` is year 10000 in
/// UTC), computed (a start plus a DURATION, the day after a date), or shown in the display
/// zone by an output that writes wall times there.
enum OutOfRangeRule: RuleDeclaration {
    static let code = FindingCode.outOfRange
    static let summary = "a time outside the years 0001–9999"
    static let readingAdvice: String? =
        "times outside the years 0001–9999 (read as such, computed from a duration, or shown in the display zone); fix the source value, or choose a \(.zone) in which it stays inside"
}

extension FindingCode {
    /// E008: a time outside the years 0001–9999.
    public static let outOfRange = FindingCode("E008", name: "out-of-range")
}
