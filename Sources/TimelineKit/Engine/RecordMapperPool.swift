/// Record mappers for worker threads: each carries its own `DateParser` (whose caches are
/// not thread-safe); a finished run returns its mapper for the next.
final class RecordMapperPool: @unchecked Sendable {
    private let make: () -> RecordMapper
    private let idle = LockedBox<[RecordMapper]>([])

    init(sources: [MappedField: FieldSource], options: MappingOptions, dates: DateParsingOptions, format: String, file: String) {
        make = { RecordMapper(sources: sources, options: options, parser: DateParser(options: dates), format: format, file: file) }
    }

    func take() -> RecordMapper { idle.withLock { $0.popLast() } ?? make() }
    func put(_ mapper: RecordMapper) { idle.withLock { $0.append(mapper) } }
}
