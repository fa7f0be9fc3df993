extension TimeValue {
    /// Reads one date string with the full fallback chain — ISO 8601 / RFC 3339, RFC 2822,
    /// epoch numbers, your formats, then a catalogue of common shapes — into an exact value
    /// that says how it was determined:
    ///
    /// ```swift
    /// var options = ReadOptions()
    /// options.assumedZone = try ResolvedZone(named: "Asia/Shanghai")
    /// options.dayFirst = true
    /// let value = try TimeValue.parse("12/06/2024 8:00", options: options)
    /// value.instant        // 2024-06-12T00:00:00Z
    /// value.basis          // .assumed
    /// ```
    ///
    /// - Returns: an instant (with its offset, zone and basis) or an all-day date.
    /// - Throws: a data `TimelineError` whose `reason` is `.invalidDate` with the validation
    ///   code, and whose message says why (no parser accepted it and which came closest, no
    ///   zone for a naive time, an ambiguous abbreviation, a DST gap under `.reject`, …).
    public static func parse(_ text: String, options: ReadOptions = ReadOptions())
        throws(TimelineError) -> TimeValue
    {
        try parse(text, options: options.dates)
    }

    /// Reads `text` with the date engine's own settings.
    package static func parse(_ text: String, options: DateParsingOptions)
        throws(TimelineError) -> TimeValue
    {
        try parseReporting(text, options: options).value
    }

    /// Reads `text`, also returning what the engine decided on the way (a local time in a
    /// DST gap moved forward, an overlap resolved), which a careful caller reports.
    package static func parseReporting(
        _ text: String, options: DateParsingOptions = DateParsingOptions()
    ) throws(TimelineError) -> ParsedTimeValue {
        switch DateParser(options: options).parse(text) {
        case .success(let parsed): return parsed
        case .failure(let reason):
            throw TimelineError(
                .data, .invalidDate(text, code: reason.code), reason.message(for: text),
                code: reason.code.rawValue)
        }
    }
}
