/// TZ110 (error): a zone name that is neither an IANA id, a Windows name nor a known
/// abbreviation. Found while reading; the record is rejected.
enum UnknownZoneRule: RuleDeclaration {
    static let code = FindingCode.unknownZone
    static let summary = "a zone name no tz database or calendar defines"
    static let readingAdvice: String? =
        "zone names that are neither IANA, Windows nor known abbreviations; fix the source or map the zone"
}

extension FindingCode {
    /// TZ110: a zone name that is not known.
    public static let unknownZone = FindingCode("TZ110", name: "unknown-zone")
}
