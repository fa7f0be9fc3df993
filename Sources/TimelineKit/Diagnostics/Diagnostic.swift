/// A place in an input: 1-based line and column (column in UTF-8 bytes). For ICS, the
/// physical line where a folded property starts.
public struct SourceLocation: Hashable, Sendable {
    /// The input's name as given (`-` for standard input).
    public var file: String
    /// 1-based line.
    public var line: Int?
    /// 1-based column in UTF-8 bytes.
    public var column: Int?

    /// A place in `file`.
    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }
}

/// A message from the library for the user. The library never prints; the command line
/// renders these as `file:line:column: severity: [code] message`.
public struct Diagnostic: Hashable, Sendable {
    /// How serious it is.
    public var severity: Severity
    /// Where in the input, when a place is known.
    public var location: SourceLocation?
    /// A stable short code (`E001`, `TZ101`, `json-syntax`, …).
    public var code: String?
    /// The message as written, settings marked (`SettingText`).
    package var text: String
    /// The notes as written, settings marked.
    package var noteTexts: [String]

    /// Lower-case start, no final period, values in single quotes; settings named as the
    /// library names them (`ReadOptions.assumedZone`).
    public var message: String {
        get { message(for: .library) }
        set { text = newValue }
    }
    /// Follow-up lines (what was tried, how to fix it), printed as `note:`.
    public var notes: [String] {
        get { notes(for: .library) }
        set { noteTexts = newValue }
    }

    /// The message with its settings named for `audience`.
    package func message(for audience: MessageAudience) -> String {
        SettingText.rendered(text, for: audience)
    }

    /// The notes with their settings named for `audience`.
    package func notes(for audience: MessageAudience) -> [String] {
        noteTexts.map { SettingText.rendered($0, for: audience) }
    }

    /// A diagnostic; `message` starts lower-case, has no final period and quotes values.
    public init(
        _ severity: Severity, _ message: String, at location: SourceLocation? = nil,
        code: String? = nil, notes: [String] = []
    ) {
        self.severity = severity
        self.text = message
        self.location = location
        self.code = code
        self.noteTexts = notes
    }
}

/// An error that stops a run: what went wrong (`reason`), and the message, place and notes.
public struct TimelineError: Error, Hashable, Sendable {
    /// Which of the command line's exit codes the error maps to.
    package enum Kind: Hashable, Sendable {
        /// Wrong flags or values: exit 64.
        case usage
        /// Malformed input that stops the run: exit 65.
        case data
        /// Input missing or unreadable: exit 66.
        case inputUnavailable
        /// Output cannot be created: exit 73.
        case cannotCreateOutput
        /// Output cannot be written: exit 74.
        case ioError
    }

    /// What went wrong, as a value a caller can act on.
    public enum Reason: Hashable, Sendable {
        /// A setting has a value that cannot be used (the message says which and why).
        case invalidSetting
        /// The input is malformed in a way that stops the run, beyond rejecting a record.
        case malformedInput
        /// An input is missing or cannot be read.
        case unreadableInput
        /// The output cannot be created or written (a missing directory, a full disk).
        case unwritableOutput
        /// A zone name neither IANA, legacy, Windows, vendor-prefixed nor a known
        /// abbreviation; `suggestion` is the nearest known name, if one is near.
        case unknownZone(String, suggestion: String?)
        /// An abbreviation with several meanings (`CST`, `IST`, `BST`, …): name the zone,
        /// or say which one the abbreviation means (`ReadOptions.zoneAbbreviations`).
        case ambiguousZoneAbbreviation(String, candidates: [String])
        /// A date/time value no parser accepted; `code` is the validation code it is
        /// reported under (E001 unreadable, TZ101 no zone, TZ109 out of range, …).
        case invalidDate(String, code: FindingCode)
        /// A date pattern that cannot be compiled (no year field, an unknown directive).
        case invalidDateFormat(String)

        /// The exit-code category of an error raised for this reason.
        fileprivate var kind: Kind {
            switch self {
            case .invalidSetting, .unknownZone, .ambiguousZoneAbbreviation, .invalidDateFormat:
                .usage
            case .malformedInput, .invalidDate: .data
            case .unreadableInput: .inputUnavailable
            case .unwritableOutput: .ioError
            }
        }
    }

    /// What kind of failure (and exit code).
    package var kind: Kind
    /// The message, place and notes.
    public var diagnostic: Diagnostic
    /// What went wrong.
    public var reason: Reason

    /// An error for `reason` with a message (and optionally its place and notes), such as a
    /// `ConvertOptions.onFinish` handler throws to fail the run.
    public init(
        _ reason: Reason, _ message: String, at location: SourceLocation? = nil,
        notes: [String] = []
    ) {
        self.init(reason.kind, reason, message, at: location, notes: notes)
    }

    /// An error of `kind` with a message (and optionally its place, code and notes); its
    /// reason is the kind's.
    package init(
        _ kind: Kind, _ message: String, at location: SourceLocation? = nil, code: String? = nil,
        notes: [String] = []
    ) {
        let reason: Reason =
            switch kind {
            case .usage: .invalidSetting
            case .data: .malformedInput
            case .inputUnavailable: .unreadableInput
            case .cannotCreateOutput, .ioError: .unwritableOutput
            }
        self.init(kind, reason, message, at: location, code: code, notes: notes)
    }

    /// An error of `kind` for `reason`, with its message.
    package init(
        _ kind: Kind, _ reason: Reason, _ message: String, at location: SourceLocation? = nil,
        code: String? = nil, notes: [String] = []
    ) {
        self.kind = kind
        self.reason = reason
        self.diagnostic = Diagnostic(.error, message, at: location, code: code, notes: notes)
    }
}

/// Maps byte offsets to 1-based line and column, computing lines incrementally as offsets
/// grow (a CRLF counts as one line break, a lone CR as one too).
struct LineCounter {
    private(set) var line = 1
    private var lineStart = 0
    private var scanned = 0
    private var previousWasCR = false

    /// The line and column of `offset` in `bytes`. Offsets must not decrease between calls.
    /// Jumps from line break to line break eight bytes at a time: a document's every event
    /// is located, so the whole document is counted.
    /// `bytes` may be a window on the input that starts at offset `base` (offsets stay the
    /// input's), as long as no bytes before those counted so far are dropped.
    mutating func location(of offset: Int, in bytes: ByteView, base: Int = 0) -> (
        line: Int, column: Int
    ) {
        precondition(scanned >= base, "bytes dropped before they were counted")
        let target = min(offset, base + bytes.count)
        while scanned < target {
            let next =
                scanned
                + bytes[(scanned - base)..<(target - base)].firstIndex(
                    of: 0x0A, 0x0D, 0x0D, from: 0)
            if next > scanned { previousWasCR = false }
            guard next < target else {
                scanned = target
                break
            }
            if bytes[next - base] == 0x0A {
                if !previousWasCR { line += 1 }
                previousWasCR = false
            } else {
                line += 1
                previousWasCR = true
            }
            lineStart = next + 1
            scanned = next + 1
        }
        return (line, offset - lineStart + 1)
    }
}
