/// The validation rules: the one list. A report's codes, the checks a run makes and the
/// advice for what reading rejects all come from here.
enum RuleRegistry {
    static var all: [any RuleDeclaration.Type] {
        [
            NaiveTimeRule.self,
            MixedOffsetsRule.self,
            DayShiftRule.self,
            DSTGapRule.self,
            DSTOverlapRule.self,
            OffsetZoneMismatchRule.self,
            SuspectZoneShiftRule.self,
            DateAsMidnightRule.self,
            AmbiguousAbbreviationRule.self,
            UnknownZoneRule.self,
            EpochUnitRule.self,
            FieldOrderRule.self,
            DuplicateIDRule.self,
            EndBeforeStartRule.self,
            UnparseableRule.self,
            MissingStartRule.self,
            UnreadableAmountRule.self,
            UnknownDirectionRule.self,
            FieldCountRule.self,
            MalformedRecordRule.self,
            InvalidEncodingRule.self,
            OutOfRangeRule.self,
        ]
    }

    /// The rule that declares `code`.
    static func rule(_ code: String) -> (any RuleDeclaration.Type)? { all.first { $0.code.rawValue == code } }
}
