/// One value read by the date engine and written again in one form and zone: the step
/// `timeline dates` makes for every value, whether it comes one per line, from a CSV column,
/// a JSON field or the middle of a log line.
package struct DateRewriter {
    package let parser: DateParser
    package let format: DateOutputFormat
    package let zone: ZoneRules
    private var days = DateOutputFormat.DayCache()

    package init(parser: DateParser, format: DateOutputFormat, zone: ZoneRules) {
        self.parser = parser
        self.format = format
        self.zone = zone
    }

    /// Reads `text` and appends it rewritten to `out` (nothing when it cannot be read): the
    /// engine's notice about it (a DST gap met, …), or why it could not be read — a value
    /// outside what `zone` can show included.
    package mutating func append(_ text: ByteView, to out: inout [UInt8]) -> Result<
        DateNotice?, DateParseError
    > {
        append(parser.parse(bytes: text), to: &out)
    }

    /// As `append(_:to:)`, read with `pattern` alone (its shape is known).
    package mutating func append(_ text: ByteView, pattern: DatePattern, to out: inout [UInt8])
        -> Result<DateNotice?, DateParseError>
    {
        append(parser.parse(bytes: text, pattern: pattern), to: &out)
    }

    private mutating func append(
        _ result: Result<ParsedTimeValue, DateParseError>, to out: inout [UInt8]
    ) -> Result<DateNotice?, DateParseError> {
        switch result {
        case .success(let parsed):
            guard parsed.value.isInSupportedRange(shownIn: zone) else {
                return .failure(.outOfRange(parsed.value.outOfRangeDescription(shownIn: zone)))
            }
            format.append(parsed.value, in: zone, cache: &days, to: &out)
            return .success(parsed.notice)
        case .failure(let error):
            return .failure(error)
        }
    }
}
