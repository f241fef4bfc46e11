import Foundation
import Testing

@testable import APNSMockCore

/// The README's lint-code table lists every code the analyzer emits, with its severity.
@Suite struct LintCodeDocumentationTests {
    @Test func theReadmeTableHasEveryCode() throws {
        var path = #filePath.split(separator: "/").map(String.init)
        path.removeLast(3)
        let readme = try String(contentsOfFile: "/" + path.joined(separator: "/") + "/README.md", encoding: .utf8)
        for code in LintCode.all {
            #expect(
                readme.contains("| `\(code.rawValue)` | \(code.severity.rawValue) |"),
                "README.md lacks the row of \(code.rawValue)")
        }
    }
}
