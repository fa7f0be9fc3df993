/// TZ101 (warning): times read in the `--assume-zone` zone because they carried no offset or
/// zone. Not wrong by itself, but the whole timeline now rests on that assumption. (Naive
/// times with no zone named are rejected at import and reported as TZ101 errors.)
struct AssumedZoneRule: ValidationRule {
    var code: FindingCode { .naiveTime }

    func check(_ context: ValidationContext) -> Finding? {
        let assumed = context.events.filter { $0.start.basis == .assumed || $0.end?.basis == .assumed }
        guard !assumed.isEmpty else { return nil }
        let zone = assumed.first?.start.zone ?? context.assumedZone?.identifier ?? "the assumed zone"
        return Finding(
            code: code, severity: .warning, count: assumed.count,
            message: "\(assumed.count) time(s) carry no offset or zone and were read as \(zone) local time (--assume-zone); "
                + "make sure the source really writes \(zone) times, or map a zone column with --map zone=COLUMN",
            examples: assumed.map { $0.example() })
    }
}
