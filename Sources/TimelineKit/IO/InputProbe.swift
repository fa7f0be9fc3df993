/// What an input is, worked out before it is read: whether it is binary (XLSX), known by
/// the format named, the file's extension or its first bytes, which no encoding may
/// convert; a text input's encoding (the one named, else the one its first bytes show), in
/// which the reader is then set to read; and its format, found by name, extension or the
/// text's first bytes. The reader keeps what was looked at: it is read once.
struct InputProbe {
    let format: any FormatPlugin.Type
    /// The encoding the reader reads in (UTF-8 for a binary input, which it passes through).
    let encoding: TextEncoding

    init(
        _ reader: InputReader, options: ReadOptions, verbose: Bool,
        onDiagnostic: (Diagnostic) -> Void
    ) throws(TimelineError) {
        encoding =
            try Self.setText(of: reader, options: options, onDiagnostic: onDiagnostic) ?? .utf8
        format = try Self.format(
            of: reader, options: options, verbose: verbose, onDiagnostic: onDiagnostic)
    }

    /// Sets `reader` to read in the input's encoding and returns it; nil for a binary input,
    /// whose bytes are read as they are.
    static func setText(
        of reader: InputReader, options: ReadOptions, onDiagnostic: (Diagnostic) -> Void
    ) throws(TimelineError) -> TextEncoding? {
        if try isBinary(reader, named: options.format) {
            try reader.setEncoding(.utf8)
            return nil
        }
        var encoding = TextEncoding.utf8
        if let named = options.encoding {
            encoding = named
        } else {
            encoding = try Self.encoding(of: reader, onDiagnostic: onDiagnostic)
        }
        try reader.setEncoding(encoding)
        return encoding
    }

    /// The format of a text input, read in its encoding, or of a binary one: the one named,
    /// else the extension's, else the content's.
    static func format(
        of reader: InputReader, options: ReadOptions, verbose: Bool,
        onDiagnostic: (Diagnostic) -> Void
    ) throws(TimelineError) -> any FormatPlugin.Type {
        let readable = FormatRegistry.readableIDs
        if let named = options.format {
            guard readable.contains(named.id) else {
                throw TimelineError(
                    .usage,
                    "reading '\(named.id)' is not supported; readable formats: \(readable.joined(separator: ", "))"
                )
            }
            return named.plugin
        }
        func chosen(_ f: any FormatPlugin.Type, _ how: String) -> any FormatPlugin.Type {
            if verbose {
                onDiagnostic(
                    Diagnostic(
                        .info, "reading as '\(f.id)' (\(how))",
                        at: SourceLocation(file: reader.name)
                    ))
            }
            return f
        }
        if let f = FormatRegistry.plugin(forPath: reader.name), readable.contains(f.id) {
            return chosen(f, "from the file extension")
        }
        let head = try reader.peek(4096)
        if let f = FormatRegistry.detect(head.span), readable.contains(f.id) {
            return chosen(f, "detected from the content")
        }
        throw TimelineError(
            .usage,
            "cannot tell the format of '\(reader.name)'; pass \(.from) with one of \(readable.joined(separator: ", "))"
        )
    }

    /// The encoding of an input no `--encoding` names, from its first 64 KiB: UTF-16 when
    /// a byte-order mark says so, UTF-8 when the bytes are UTF-8; when they are not, the
    /// legacy encoding in which they read without a fault as the most plausible text
    /// (`EncodingGuess`: GB18030, Shift_JIS, EUC-KR, Big5, Windows-1252 or ISO 8859-15; a
    /// note says which), else UTF-8 (the bad records are rejected with E007). Bytes that are
    /// UTF-8 but for a few stay UTF-8: those records are rejected, not the file misread.
    private static func encoding(of reader: InputReader, onDiagnostic: (Diagnostic) -> Void)
        throws(TimelineError) -> TextEncoding
    {
        let head = Array(try reader.peek(1 << 16))
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) { return .utf16 }
        // A character cut at the end of the peeked bytes is not a fault.
        let complete =
            head.count == 1 << 16
            ? (0...3).contains { String(validating: head.dropLast($0), as: UTF8.self) != nil }
            : false
        if complete || String(validating: head, as: UTF8.self) != nil
            || EncodingGuess.isMostlyUTF8(head)
        {
            return .utf8
        }
        var best: (encoding: TextEncoding, score: Double)?
        for candidate in EncodingGuess.candidates {
            guard let transcoder = try? Transcoder(from: candidate) else { continue }
            let text = String(
                decoding: transcoder.convert(head, final: head.count < 1 << 16), as: UTF8.self)
            guard transcoder.replacedSequences == 0,
                let score = EncodingGuess.plausibility(text, as: candidate)
            else { continue }
            if score > (best?.score ?? 0) { best = (candidate, score) }
        }
        guard let (guess, score) = best, score >= 0.5 else { return .utf8 }
        var encoding = guess
        if encoding == .windows1252 && EncodingGuess.isLatin9(head) { encoding = .latin9 }
        onDiagnostic(
            Diagnostic(
                .info,
                "reading as \(encoding.displayName): the bytes are not UTF-8, and read as \(encoding.displayName) they are the most plausible text (pass \(.encoding) to choose another)",
                at: SourceLocation(file: reader.name)))
        return encoding
    }

    /// Whether `reader` holds a binary format (XLSX): named by `--from`, the file's
    /// extension, else its first bytes.
    private static func isBinary(_ reader: InputReader, named: FileFormat?) throws(TimelineError)
        -> Bool
    {
        if let named { return named.plugin.isBinary }
        if let byPath = FormatRegistry.plugin(forPath: reader.name) { return byPath.isBinary }
        let head = try reader.peek(4096)
        return FormatRegistry.detect(head.span)?.isBinary ?? false
    }
}
