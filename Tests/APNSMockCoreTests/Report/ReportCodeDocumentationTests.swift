import Foundation
import Testing

@testable import APNSMockCore

/// docs/REPORT.md has a row for every finding code, with its severity.
@Suite struct ReportCodeDocumentationTests {
    @Test func theReportPageHasEveryCode() throws {
        var path = #filePath.split(separator: "/").map(String.init)
        path.removeLast(4)
        let page = try String(contentsOfFile: "/" + path.joined(separator: "/") + "/docs/REPORT.md", encoding: .utf8)
        for code in BehaviorCode.all {
            #expect(
                page.contains("| `\(code.rawValue)` | \(code.severity.rawValue) |"),
                "docs/REPORT.md lacks the row of \(code.rawValue)")
        }
    }
}
