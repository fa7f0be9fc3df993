/// TZ105 (warning): local times that occur twice in their zone because the clocks went back.
/// Found while reading: the earlier instant is used (`--on-overlap earlier`) and reported,
/// or the later, or the record rejected.
enum DSTOverlapRule: RuleDeclaration {
    static let code = FindingCode.dstOverlap
    static let summary =
        "a local time the clocks repeated (a DST overlap), the earlier instant taken"
    static let readingAdvice: String? =
        "local times that occur twice (DST overlap); the earlier was used (see \(.onOverlap))"
}

extension FindingCode {
    /// TZ105: a local time that occurs twice (DST overlap).
    public static let dstOverlap = FindingCode("TZ105", name: "dst-overlap")
}
