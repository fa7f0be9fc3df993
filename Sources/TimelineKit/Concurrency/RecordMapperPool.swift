/// Record mappers for worker threads: each carries its own `DateParser` (whose caches are
/// not thread-safe); a finished run returns its mapper for the next.
final class RecordMapperPool: Sendable {
    private let pool: ObjectPool<RecordMapper>

    /// - Parameter fieldOrder: the day/month order the file's first values show, for
    ///   values that do not decide it themselves (a flag in `dates` wins).
    init(
        sources: [MappedField: FieldSource], options: MappingOptions, dates: DateParsingOptions,
        fieldOrder: FieldOrder?, format: String, file: String
    ) {
        pool = ObjectPool {
            let parser = DateParser(options: dates)
            parser.setFieldOrder(fieldOrder)
            return RecordMapper(
                sources: sources, options: options, parser: parser, format: format, file: file)
        }
    }

    func take() -> RecordMapper { pool.take() }
    func put(_ mapper: RecordMapper) { pool.put(mapper) }
}
