import Testing

@testable import APNSMockCore

/// What a timed-out wait says (`WaitExplanation`), and "did you mean" for a path no record has
/// (`PathSuggestion`).
@Suite struct WaitExplanationTests {
    @Test func theTextListsMatchesNearMissesDifferencesAndTheDashboard() {
        let explanation = WaitExplanation(
            timeout: "10s", wanted: 2, conditions: "topic=com.example.app payload.aps.alert.titel=Hi",
            matched: ["#1  200  push  abcd1234"],
            nearMisses: [
                .init(
                    summary: "#2  200  push  abcd1234", satisfied: 1, of: 2,
                    differences: [
                        .init(
                            field: "payload.aps.alert.titel", expected: "Hi", actual: nil,
                            suggestion: "payload.aps.alert.title")
                    ]),
                .init(
                    summary: "#3  400 BadTopic  push  abcd1234", satisfied: 0, of: 2,
                    differences: [.init(field: "topic", expected: "com.example.app", actual: "com.other")]),
            ],
            dashboard: WaitExplanation.dashboardLink(
                host: "127.0.0.1:2198", queryString: "topic=com.example.app&payload.aps.alert.titel=Hi"))
        #expect(
            explanation.text == """
                timed out after 10s: 1 of 2 records matched topic=com.example.app payload.aps.alert.titel=Hi
                  matched: #1  200  push  abcd1234
                closest records:
                  #2  200  push  abcd1234  (1 of 2 conditions hold)
                    payload.aps.alert.titel: expected Hi, got (none) (did you mean payload.aps.alert.title?)
                  #3  400 BadTopic  push  abcd1234  (0 of 2 conditions hold)
                    topic: expected com.example.app, got com.other
                dashboard: http://127.0.0.1:2198/#filter=topic%3Dcom.example.app%26payload.aps.alert.titel%3DHi
                """)
    }

    @Test(
        arguments: [
            (
                "topic=a", [],
                "timed out after 1s: 0 of 1 record matched topic=a\nno recent record matches any of the conditions\ndashboard: http://h/#filter=topic%3Da"
            ),
            ("", [], "timed out after 1s: 0 of 1 record matched\ndashboard: http://h/"),
        ] as [(String, [String], String)])
    func withoutNearMisses(_ conditions: String, _ matched: [String], _ text: String) {
        let explanation = WaitExplanation(
            timeout: "1s", wanted: 1, conditions: conditions, matched: matched, nearMisses: [],
            dashboard: WaitExplanation.dashboardLink(
                host: "h", queryString: conditions.isEmpty ? "" : PercentEncoding.encoded("topic") + "=a"))
        #expect(explanation.text == text)
    }

    @Test func pathsAreEveryKeyAndIndexUnderThePrefix() {
        let document = JSONValue.parse(#"{"aps":{"alert":{"title":"Hi"}},"items":[{"id":1}]}"#)!
        var paths = Set<String>()
        PathSuggestion.paths(of: document, under: "payload", into: &paths)
        #expect(
            paths == [
                "payload.aps", "payload.aps.alert", "payload.aps.alert.title", "payload.items", "payload.items.0",
                "payload.items.0.id",
            ])
    }

    @Test(
        arguments: [
            ("payload.aps.alert.titel", "payload.aps.alert.title"),
            ("payload.aps.alert.Title", "payload.aps.alert.title"),
            ("payload.aps.badge", nil),
            ("payload.aps.aler", "payload.aps.alert"),
        ] as [(String, String?)])
    func theSuggestionIsTheClosePath(_ field: String, _ suggestion: String?) {
        let paths: Set<String> = ["payload.aps", "payload.aps.alert", "payload.aps.alert.title", "payload.aps.sound"]
        #expect(PathSuggestion.suggestion(for: field, among: paths) == suggestion)
    }
}
