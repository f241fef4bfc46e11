import APNSMockCore
import Testing

/// `DeclarativeWebPushLinter`: WebKit's "Meet Declarative Web Push" and the W3C Push API's
/// declarative push message; one defect per row.
@Suite("DeclarativeWebPushLinter: a declarative push message, one defect per row")
struct DeclarativeWebPushLinterTests {
    static let valid = #"""
        {"web_push":8030,"notification":{"title":"Ada emailed 'London'","lang":"en-US","dir":"ltr",
        "body":"Did you hear about the tube strikes?","navigate":"https://email.example/message/12","silent":false,
        "actions":[{"action":"read","title":"Read","navigate":"https://email.example/message/12"}]},
        "app_badge":12,"mutable":true}
        """#

    func codes(_ text: String) -> [DeclarativeWebPushLintCode] {
        DeclarativeWebPushLinter.lint(Array(text.utf8)).map(\.code)
    }

    /// `valid` with `old` replaced by `new`.
    func changed(_ old: String, _ new: String) -> [DeclarativeWebPushLintCode] {
        let text = Self.valid.replacing(old, with: new)
        #expect(text != Self.valid, "the row changes nothing: \(old)")
        return codes(text)
    }

    @Test("The WebKit blog's example shape has no findings and is declarative")
    func valid() {
        #expect(codes(Self.valid) == [])
        #expect(DeclarativeWebPushLinter.isDeclarative(Array(Self.valid.utf8)))
    }

    @Test("A push that is not JSON, or JSON without web_push, is an ordinary push: no findings")
    func notDeclarative() {
        #expect(codes("hello") == [])
        #expect(codes(#"{"title":"x"}"#) == [])
        #expect(!DeclarativeWebPushLinter.isDeclarative(Array(#"{"title":"x"}"#.utf8)))
    }

    @Test("One defect per row")
    func rows() {
        #expect(changed(#""web_push":8030"#, #""web_push":"8030""#) == [.webPushNot8030])
        #expect(changed(#""web_push":8030"#, #""web_push":8031"#) == [.webPushNot8030])
        #expect(codes(#"{"web_push":8030}"#) == [.notificationMissing])
        #expect(codes(#"{"web_push":8030,"notification":[]}"#) == [.notificationMissing])
        #expect(changed(#""title":"Ada emailed 'London'","#, "") == [.titleMissing])
        #expect(changed(#""title":"Ada emailed 'London'""#, #""title":7"#) == [.titleMissing])
        #expect(changed(#""navigate":"https://email.example/message/12","silent""#, #""silent""#) == [.navigateMissing])
        #expect(changed(#""dir":"ltr""#, #""dir":"left""#) == [.dirInvalid])
        #expect(changed(#""silent":false"#, #""silent":"no""#) == [.notBoolean])
        #expect(changed(#""mutable":true"#, #""mutable":1"#) == [.notBoolean])
        #expect(changed(#""lang":"en-US""#, #""lang":["en"]"#) == [.notString])
        #expect(changed(#""app_badge":12"#, #""app_badge":"12""#) == [.notUnsignedInteger])
        #expect(changed(#""app_badge":12"#, #""app_badge":-1"#) == [.notUnsignedInteger])
        #expect(changed(#""app_badge":12"#, #""app_badge":1.5"#) == [.notUnsignedInteger])
        #expect(changed(#""silent":false"#, #""silent":false,"timestamp":"now""#) == [.notUnsignedInteger])
        #expect(changed(#""action":"read","#, "") == [.actionIncomplete])
        #expect(changed(#""silent":false"#, #""require_interaction":true"#) == [.requireInteractionSpelling])
    }

    @Test("Findings name their path and say what is wrong")
    func findingText() {
        let finding = DeclarativeWebPushLinter.lint(Array(#"{"web_push":8030,"notification":{"title":"x"}}"#.utf8))
        #expect(finding.map(\.path) == ["notification.navigate"])
        #expect(finding.first?.message.contains("navigate") == true)
        #expect(DeclarativeWebPushLintCode.navigateMissing.severity == .error)
        #expect(DeclarativeWebPushLintCode.dirInvalid.severity == .warning)
        #expect(
            Set(DeclarativeWebPushLintCode.allCases.map(\.summary)).count == DeclarativeWebPushLintCode.allCases.count)
    }
}
