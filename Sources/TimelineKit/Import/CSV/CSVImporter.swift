import Foundation

/// Where each mapped field's text sits in a CSV row, worked out once per file.
struct CSVColumnPlan {
    let columns: [(MappedField, [Int])]
    let unmapped: [Int]
    let header: [String]

    init(sources: [MappedField: FieldSource], header: [String]) {
        let index = Dictionary(header.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        columns = MappedField.allCases.compactMap { field in
            sources[field].map { (field, $0.columns.compactMap { index[$0] }) }
        }
        let used = Set(columns.flatMap(\.1))
        unmapped = header.indices.filter { !used.contains($0) }
        self.header = header
    }

    func texts(_ fields: [String]) -> FieldTexts {
        var t = FieldTexts()
        for (field, indices) in columns {
            t[field] = indices.count == 1 ? FieldTexts.single(fields[indices[0]]) : FieldTexts.join(indices.map { fields[$0] })
        }
        for i in unmapped where !fields[i].isEmpty { t.attributes.append((header[i], fields[i])) }
        return t
    }
}

/// `csv` and `tsv`: one event per row, through the field mapping (SPEC §4). Streams: each
/// row is mapped and handed on as soon as it is read.
///
/// Rejected with the row's line and the reason: rows with more or fewer fields than the
/// header, rows the CSV reader could not split (unterminated quote, invalid UTF-8), and rows
/// the mapper refuses (no or unreadable start time, unreadable amount, …).
public struct CSVImporter: TimelineImporter {
    public var defaultDelimiter: UInt8?

    public init(defaultDelimiter: UInt8? = nil) {
        self.defaultDelimiter = defaultDelimiter
    }

    public func read(from input: InputReader, context: ImportContext) throws(TimelineError) {
        let options = context.options
        let reader = try CSVReader(input: input, delimiter: options.delimiter ?? defaultDelimiter)
        var header: [String]
        var pending: CSVRecord?
        switch try reader.next() {
        case nil: return
        case .failure(let e)?:
            throw TimelineError(.data, "cannot read the header line: \(e.message)", at: SourceLocation(file: input.name, line: e.line))
        case .success(let first)?:
            if options.hasHeader {
                header = first.fields.map { $0.trimmingCharacters(in: .whitespaces) }
                var seen: [String: Int] = [:]
                for (i, name) in header.enumerated() {
                    // Keep every column: a repeated or empty header name gets a suffix.
                    let base = name.isEmpty ? String(i + 1) : name
                    seen[base, default: 0] += 1
                    header[i] = seen[base]! > 1 ? "\(base)_\(seen[base]!)" : base
                }
            } else {
                header = (1...max(first.fields.count, 1)).map(String.init)
                pending = first
            }
        }
        let sources = try options.mapping.mapping.resolve(columns: header)
        let mapper = RecordMapper(sources: sources, options: options.mapping, parser: context.dateParser, format: context.format, file: input.name)
        let plan = CSVColumnPlan(sources: sources, header: header)
        var number = 0
        func handle(_ record: CSVRecord) throws(TimelineError) {
            if record.fields.count == 1 && record.fields[0].isEmpty { return }  // a blank line is not a record
            number += 1
            let location = SourceLocation(file: input.name, line: record.line)
            guard record.fields.count == header.count else {
                context.reject(RejectedRecord(
                    location: location, raw: record.raw,
                    reason: "expected \(header.count) fields (as in the header), found \(record.fields.count)", code: "csv-fields",
                    fields: record.fields, header: header))
                return
            }
            var rejection: RecordMapper.Rejection?
            if let event = mapper.map(plan.texts(record.fields), number: number, line: record.line, rejection: &rejection) {
                if !mapper.notices.isEmpty { context.report(mapper.notices, at: location) }
                try context.emit(event)
            } else if let r = rejection {
                context.reject(RejectedRecord(location: location, raw: record.raw, reason: r.reason, code: r.code, fields: record.fields, header: header))
            }
        }
        if let pending { try handle(pending) }
        while let next = try reader.next() {
            switch next {
            case .success(let record): try handle(record)
            case .failure(let e):
                number += 1
                context.reject(RejectedRecord(location: SourceLocation(file: input.name, line: e.line), raw: e.raw, reason: e.message, code: "csv-syntax", header: header))
            }
        }
    }
}
