/// Record mappers for worker threads: each carries its own `DateParser` (whose caches are
/// not thread-safe); a finished run returns its mapper for the next.
final class RecordMapperPool: @unchecked Sendable {
    private let make: () -> RecordMapper
    private let idle = LockedBox<[RecordMapper]>([])

    /// - Parameter fieldOrder: the day/month order the file's first values show, for
    ///   values that do not decide it themselves (a flag in `dates` wins).
    init(
        sources: [MappedField: FieldSource], options: MappingOptions, dates: DateParsingOptions, fieldOrder: FieldOrder?, format: String, file: String
    ) {
        make = {
            let parser = DateParser(options: dates)
            parser.setFieldOrder(fieldOrder)
            return RecordMapper(sources: sources, options: options, parser: parser, format: format, file: file)
        }
    }

    func take() -> RecordMapper { idle.withLock { $0.popLast() } ?? make() }
    func put(_ mapper: RecordMapper) { idle.withLock { $0.append(mapper) } }
}
