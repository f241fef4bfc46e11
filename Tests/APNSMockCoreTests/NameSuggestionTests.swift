import Testing

@testable import APNSMockCore

/// "Did you mean …?" for unknown names: the closest known name, when close enough to be a typo.
@Suite struct NameSuggestionTests {
    static let settings = ["host", "port", "adminPort", "recordCapacity", "maxConnections", "threads", "seed"]

    @Test(arguments: [
        ("recordCapcity", "recordCapacity"), ("RecordCapacity", "recordCapacity"), ("prot", "port"),
        ("adminport", "adminPort"), ("maxConnection", "maxConnections"), ("thraeds", "threads"),
        ("hots", "host"),
    ])
    func aTypoGetsTheClosestName(_ typed: String, _ expected: String) {
        #expect(NameSuggestion.closest(to: typed, among: Self.settings) == expected)
        #expect(NameSuggestion.didYouMean(typed, among: Self.settings) == " (did you mean '\(expected)'?)")
    }

    @Test(arguments: ["bogus", "x", "", "capacity", "records", "portal-settings"])
    func aNameFarFromEveryKnownOneGetsNone(_ typed: String) {
        #expect(NameSuggestion.closest(to: typed, among: Self.settings) == nil)
        #expect(NameSuggestion.didYouMean(typed, among: Self.settings) == "")
    }

    @Test func editDistanceCountsSwapsOnce() {
        func distance(_ a: String, _ b: String) -> Int { NameSuggestion.editDistance(Array(a.utf8), Array(b.utf8)) }
        #expect(distance("", "abc") == 3)
        #expect(distance("abc", "abc") == 0)
        #expect(distance("abc", "acb") == 1)
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("recordCapcity", "recordCapacity") == 1)
    }
}
