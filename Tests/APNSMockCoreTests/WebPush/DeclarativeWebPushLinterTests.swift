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

    func codes(_ text: String) -> [LintCode] {
        DeclarativeWebPushLinter.lint(Array(text.utf8)).map(\.code)
    }

    /// `valid` with `old` replaced by `new`.
    func changed(_ old: String, _ new: String) -> [LintCode] {
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
        #expect(changed(#""title":"Ada emailed 'London'","#, "") == [.notificationTitleMissing])
        #expect(changed(#""title":"Ada emailed 'London'""#, #""title":7"#) == [.notificationTitleMissing])
        #expect(
            changed(#""navigate":"https://email.example/message/12","silent""#, #""silent""#) == [
                .notificationNavigateMissing
            ])
        #expect(changed(#""dir":"ltr""#, #""dir":"left""#) == [.notificationDirInvalid])
        #expect(changed(#""silent":false"#, #""silent":"no""#) == [.declarativeNotBoolean])
        #expect(changed(#""mutable":true"#, #""mutable":1"#) == [.declarativeNotBoolean])
        #expect(changed(#""lang":"en-US""#, #""lang":["en"]"#) == [.declarativeNotString])
        #expect(changed(#""app_badge":12"#, #""app_badge":"12""#) == [.declarativeNotUnsignedInteger])
        #expect(changed(#""app_badge":12"#, #""app_badge":-1"#) == [.declarativeNotUnsignedInteger])
        #expect(changed(#""app_badge":12"#, #""app_badge":1.5"#) == [.declarativeNotUnsignedInteger])
        #expect(changed(#""silent":false"#, #""silent":false,"timestamp":"now""#) == [.declarativeNotUnsignedInteger])
        #expect(changed(#""action":"read","#, "") == [.notificationActionIncomplete])
        #expect(
            changed(#""silent":false"#, #""require_interaction":true"#) == [.notificationRequireInteractionSpelling])
    }

    @Test("Findings name their path and say what is wrong")
    func findingText() {
        let finding = DeclarativeWebPushLinter.lint(Array(#"{"web_push":8030,"notification":{"title":"x"}}"#.utf8))
        #expect(finding.map(\.path) == ["notification.navigate"])
        #expect(finding.first?.message.contains("navigate") == true)
        #expect(LintCode.notificationNavigateMissing.severity == .error)
        #expect(LintCode.notificationDirInvalid.severity == .warning)
        // The declarative codes are LintCode's own: matchable, documented, in `all`.
        #expect(LintCode(rawValue: "notification-title-missing") == .notificationTitleMissing)
        #expect(Array(LintCode.all.suffix(LintCode.declarativeWebPush.count)) == LintCode.declarativeWebPush)
    }
}
