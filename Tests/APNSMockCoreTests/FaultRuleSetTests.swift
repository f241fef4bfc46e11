import Testing

@testable import APNSMockCore

/// The answer path's snapshot of the fault rules: filing rules under their token's fingerprint
/// must never change which rules match, nor their order.
@Suite struct FaultRuleSetTests {
    static func rule(_ id: String, _ conditions: [DeliveryMatcher.Condition], connectionID: UInt64? = nil) -> FaultRule
    {
        FaultRule(
            id: id, matcher: DeliveryMatcher(conditions), connectionID: connectionID, action: FaultAction(.hang),
            createdAt: 0)
    }

    /// What the set must answer: every rule asked, in creation order.
    static func everyRuleAsked(_ rules: [FaultRule], _ facts: FakeFacts, connectionID: UInt64) -> [String] {
        rules.filter { $0.matches(facts, connectionID: connectionID) }.map(\.id)
    }

    @Test func rulesOnTokensAndRulesOnNoneMatchInCreationOrder() {
        let token = "abcd0123abcd0123"
        let rules = [
            Self.rule("onTopic", [.topic("com.example.app")]),
            Self.rule("onToken", [.token(token)]),
            Self.rule("onOtherToken", [.token("ffff0123abcd0123")]),
            Self.rule("everything", []),
            Self.rule("onTokenInCapitals", [.token(token.uppercased()), .status(200)]),
            Self.rule("onTokenOtherConnection", [.token(token)], connectionID: 9),
        ]
        let set = FaultRuleSet(rules)
        #expect(
            set.matchingIDs(FakeFacts(matchToken: token), connectionID: 1) == [
                "onTopic", "onToken", "everything", "onTokenInCapitals",
            ])
        #expect(
            set.matchingIDs(FakeFacts(matchToken: token.uppercased()), connectionID: 9) == [
                "onTopic", "onToken", "everything", "onTokenInCapitals", "onTokenOtherConnection",
            ])
        #expect(set.matchingIDs(FakeFacts(matchToken: nil), connectionID: 1) == ["onTopic", "everything"])
    }

    /// A push meets no candidate when every rule names another token: the answer path then makes
    /// no facts at all.
    @Test func noCandidatesWhenEveryRuleNamesAnotherToken() {
        let set = FaultRuleSet((0..<10).map { Self.rule("r\($0)", [.token(String(repeating: "c\($0)", count: 32))]) })
        #expect(set.candidates(token: String(repeating: "ab", count: 32)) == nil)
        #expect(set.candidates(token: nil) == nil)
        #expect(set.candidates(token: String(repeating: "C3", count: 32)) != nil)
        #expect(FaultRuleSet.empty.candidates(token: "ab") == nil)
    }

    /// Tokens that share a fingerprint (same length, same first and last 8 bytes) are still told
    /// apart by the full match.
    @Test func tokensSharingAFingerprintAreToldApart() {
        let a = "00000000" + "aaaa" + "11111111"
        let b = "00000000" + "bbbb" + "11111111"
        #expect(FaultRuleSet.fingerprint(a) == FaultRuleSet.fingerprint(b))
        let set = FaultRuleSet([Self.rule("a", [.token(a)]), Self.rule("b", [.token(b)])])
        #expect(set.matchingIDs(FakeFacts(matchToken: a), connectionID: 1) == ["a"])
        #expect(set.matchingIDs(FakeFacts(matchToken: b.uppercased()), connectionID: 1) == ["b"])
    }

    /// Random rule sets and pushes (fixed seed): the set answers what asking every rule answers.
    @Test func answersWhatAskingEveryRuleAnswers() {
        var random = SplitMix64(seed: 23)
        let tokens = [
            "abcd0123abcd0123", "ABCD0123abcd0123", "abcd0123ABCD0123", "ffff0123abcd0123", "abcd", "", "é-not-hex",
            String(repeating: "ab", count: 32),
        ]
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        for round in 0..<200 {
            let rules = (0..<Int(random.next() % 12)).map { number -> FaultRule in
                var conditions: [DeliveryMatcher.Condition] = []
                if random.next() % 2 == 0 { conditions.append(.token(pick(tokens))) }
                if random.next() % 3 == 0 { conditions.append(.topic(pick(["com.example.app", "com.other"]))) }
                if random.next() % 4 == 0 { conditions.append(.tokenPrefix(pick(["ab", "ff"]))) }
                return Self.rule("r\(number)", conditions, connectionID: random.next() % 4 == 0 ? 1 : nil)
            }
            let set = FaultRuleSet(rules)
            for token in tokens + [nil] {
                for connectionID: UInt64 in [1, 2] {
                    let facts = FakeFacts(matchToken: token)
                    #expect(
                        set.matchingIDs(facts, connectionID: connectionID)
                            == Self.everyRuleAsked(rules, facts, connectionID: connectionID),
                        "round \(round), token \(token ?? "none")")
                }
            }
        }
    }
}
