/// One date string read with the full fallback chain — ISO 8601 / RFC 3339, RFC 2822, epoch
/// numbers, your patterns, then a catalogue of common shapes — into an exact value that says
/// how it was determined:
///
/// ```swift
/// var options = DateParsingOptions()
/// options.assumedZone = try ZoneResolver().resolve("Asia/Shanghai")
/// options.fieldOrder = .dayFirst
/// let value = try TimelineDate.parse("12/06/2024 8:00", options: options)
/// value.instant        // 2024-06-12T00:00:00Z
/// value.basis          // .assumed
/// ```
///
/// To read many values, make one `DateParser` and call it for each (it caches zones and
/// compiled patterns; one per thread).
public enum TimelineDate {
    /// Reads `text`.
    /// - Returns: the value: an instant (with its offset, zone and basis) or an all-day date.
    /// - Throws: `InvalidDate`, which says why (no parser accepted it and which came
    ///   closest, no zone for a naive time, an ambiguous abbreviation, a DST gap under
    ///   `.reject`, …).
    public static func parse(_ text: String, options: DateParsingOptions = DateParsingOptions())
        throws(InvalidDate) -> TimeValue
    {
        try parseReporting(text, options: options).value
    }

    /// Reads `text`, also returning what the engine decided on the way (a local time in a
    /// DST gap moved forward, an overlap resolved), which a careful caller reports.
    package static func parseReporting(
        _ text: String, options: DateParsingOptions = DateParsingOptions()
    ) throws(InvalidDate) -> ParsedTimeValue {
        switch DateParser(options: options).parse(text) {
        case .success(let parsed): return parsed
        case .failure(let reason): throw InvalidDate(text: text, reason: reason)
        }
    }
}

/// A date string that could not be read, and why.
public struct InvalidDate: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// Why it could not be read.
    package var reason: DateParseError

    /// The validation code the reason is reported under (E001, TZ101, TZ109, …).
    public var code: FindingCode { reason.code }

    /// What went wrong and how to fix it: "cannot read 'yesterday' as a date/time; closest:
    /// iso8601 (understood 0 of 9 bytes); add a pattern with --date-format, …".
    public var description: String { reason.message(for: text) }
}
