/// What a run of `CSVDateColumns`, `NDJSONDateFields` or `TextDateRewriter` did.
public struct DateFieldSummary: Hashable, Sendable {
    /// Records (rows after a CSV header, NDJSON lines, text lines), and values rewritten.
    public var records = 0
    public var rewritten = 0
    /// Values that could not be read (left or emptied), and of them those with no zone.
    public var failed = 0
    public var naive = 0
}

/// What to do with a value that cannot be read.
public enum DateFieldOnError: String, Sendable, CaseIterable {
    /// Leave it as it was.
    case keep
    /// Write the field empty.
    case empty
}

/// A value that could not be read: where, what, why.
public struct DateFieldFailure: Sendable {
    /// The line its record starts on.
    public var line: Int
    /// The column's header name.
    public var column: String
    /// The value as read.
    public var value: String
    /// Why it could not be read.
    public var error: DateParseError
    /// The record's bytes as read, and the header line's (for a rejects file).
    public var record: [UInt8]
    public var header: [UInt8]
}
