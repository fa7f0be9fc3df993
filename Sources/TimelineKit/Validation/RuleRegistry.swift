/// The validation rules: the one list. A report's codes, the checks a run makes and the
/// advice for what reading rejects all come from here. The list is generated from the rules
/// in `Rules/` by `scripts/generate-lists`, in the order of their codes (a test fails when it
/// is stale).
enum RuleRegistry {
    static var all: [any RuleDeclaration.Type] {
        // generated: rules
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
        // end of generated rules
    }

    /// The rule that declares `code`.
    static func rule(_ code: String) -> (any RuleDeclaration.Type)? {
        all.first { $0.code.rawValue == code }
    }
}
