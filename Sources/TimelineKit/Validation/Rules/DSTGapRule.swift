/// TZ104 (warning): local times that do not exist in their zone because the clocks jumped
/// forward (2024-03-10 02:30 in New York). Found while reading: moved forward by the gap
/// (`--on-gap shift`, the default) and reported, or the record rejected (`--on-gap reject`).
enum DSTGapRule: RuleDeclaration {
    static let code = FindingCode.dstGap
    static let summary = "a local time the clocks skipped (a DST gap), moved forward by the gap"
    static let readingAdvice: String? =
        "local times that do not exist (DST gap); they were moved forward (\(.onGap, "reject") refuses them)"
}

extension FindingCode {
    /// TZ104: a local time that does not exist (DST gap).
    public static let dstGap = FindingCode("TZ104", name: "dst-gap")
}
