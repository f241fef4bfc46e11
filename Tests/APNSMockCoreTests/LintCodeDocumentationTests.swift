import Foundation
import Testing

@testable import APNSMockCore

/// The lint-code table of docs/LINT-CODES.md lists every code the analyzer emits, with its
/// severity.
@Suite struct LintCodeDocumentationTests {
    @Test func theLintCodesPageHasEveryCode() throws {
        var path = #filePath.split(separator: "/").map(String.init)
        path.removeLast(3)
        let page = try String(
            contentsOfFile: "/" + path.joined(separator: "/") + "/docs/LINT-CODES.md", encoding: .utf8)
        for code in LintCode.all {
            #expect(
                page.contains("| `\(code.rawValue)` | \(code.severity.rawValue) |"),
                "docs/LINT-CODES.md lacks the row of \(code.rawValue)")
        }
    }
}
