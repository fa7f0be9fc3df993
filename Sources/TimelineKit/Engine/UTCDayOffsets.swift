/// Times written with an offset other than UTC, in a run that counts its days in UTC only
/// because no zone was named: the UTC server time that lands on the wrong day in UTC+8 is
/// what this toolkit exists to catch, so the run says so.
struct UTCDayOffsets: Sendable {
    private var times = 0
    private var shifted = 0
    /// The offsets seen other than UTC, most frequent first when reported.
    private var offsets: [Int: Int] = [:]

    mutating func add(_ event: borrowing Event) {
        guard let offset = event.start.offset else { return }
        times += 1
        if offset.seconds != 0 {
            shifted += 1
            offsets[offset.seconds, default: 0] += 1
        }
    }

    /// Adds the counts of other events.
    mutating func merge(_ other: UTCDayOffsets) {
        times += other.times
        shifted += other.shifted
        offsets.merge(other.offsets, uniquingKeysWith: +)
    }

    /// The note, when any time was written with another offset.
    func note(to report: (Diagnostic) -> Void) {
        guard shifted > 0 else { return }
        let ranked = offsets.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        let common = ranked.prefix(3).map { UTCOffset(seconds: $0.key).isoString }
        let example =
            Self.examples[ranked[0].key].map { "e.g. \(.zone, "\($0)") for \(common[0])" }
            ?? "e.g. \(.zone, "Area/City")"
        report(
            Diagnostic(
                .info,
                "days are counted in UTC (no zone was named), but \(shifted) of \(times) times were written with another offset (\(common.joined(separator: ", "))): an evening there may fall on the next UTC day",
                notes: ["name the zone to count days in with \(.zone), \(example)"]))
    }

    /// A zone that has each common offset (for the example only: the data's own zone may be
    /// another with the same offset).
    static let examples: [Int: String] = [
        8 * 3600: "Asia/Shanghai", 9 * 3600: "Asia/Tokyo", 19_800: "Asia/Kolkata",
        3600: "Europe/Berlin", 7200: "Europe/Berlin", -4 * 3600: "America/New_York",
        -5 * 3600: "America/New_York", -7 * 3600: "America/Los_Angeles",
        -8 * 3600: "America/Los_Angeles", 10 * 3600: "Australia/Sydney",
        -3 * 3600: "America/Sao_Paulo",
    ]
}
