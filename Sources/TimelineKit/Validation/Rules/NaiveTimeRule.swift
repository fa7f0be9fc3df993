/// TZ101 (warning): times read in the `--assume-zone` zone because they carried no offset or
/// zone. Not wrong by itself, but the whole timeline now rests on that assumption. (Naive
/// times with no zone named are rejected at import and reported as TZ101 errors.)
final class NaiveTimeRule: EventRuleDeclaration, MergeableRule {
    static let code = FindingCode.naiveTime
    static let summary = "a time with no offset or zone: read in the zone assumed, else rejected"
    static let readingAdvice: String? =
        "times with no offset or zone; name their zone with \(.assumeZone, "ZONE") (or a zone column with \(.map, "zone=COLUMN"))"
    private let context: ValidationContext
    private var flagged = FlaggedEvents()
    /// The zone of the first flagged start (nil when only an end was assumed).
    private var zone: String?

    struct Digest {
        var flagged = FlaggedEvents()
        var zone: String?
    }

    init(_ context: ValidationContext) {
        self.context = context
    }

    static func digest(_ batch: ValidationBatch, _ context: ValidationContext) -> Digest {
        var d = Digest()
        for e in batch.facts {
            guard e.basis == .assumed || batch.end(of: e)?.basis == .assumed else { continue }
            if d.flagged.count == 0 {
                d.zone = e.assumedZone < 0 ? nil : batch.assumedZones[Int(e.assumedZone)]
            }
            d.flagged.add(batch.example(e))
        }
        return d
    }

    var absorbed: Digest { Digest(flagged: flagged, zone: zone) }

    func absorb(_ d: consuming Digest, _ numbers: BatchNumbers) {
        if flagged.count == 0 { zone = d.zone }
        flagged.add(d.flagged)
    }

    func finish(_ names: RunNames) -> Finding? {
        guard flagged.count > 0 else { return nil }
        let zone = zone ?? context.assumedZone?.identifier ?? "the assumed zone"
        return Finding(
            code: Self.code, severity: .warning, count: flagged.count,
            message:
                "\(flagged.count) time(s) carry no offset or zone and were read as \(zone) local time (\(.assumeZone)); "
                + "make sure the source really writes \(zone) times, or map a zone column with \(.map, "zone=COLUMN")",
            examples: flagged.examples)
    }
}

extension NaiveTimeRule.Digest: StateCodable {
    func encode(to out: inout [UInt8]) {
        flagged.encode(to: &out)
        BinaryWriter.optional(zone, &out) { BinaryWriter.string($0, &$1) }
    }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        self.init(
            flagged: try FlaggedEvents(decoding: &r),
            zone: try r.optional { (r: inout BinaryReader) throws(BinaryReader.Corrupt) in
                try r.string()
            })
    }
}

extension FindingCode {
    /// TZ101: a time with no offset and no zone.
    public static let naiveTime = FindingCode("TZ101", name: "naive-time")
}
