import APNSMockCore
import Testing

@testable import APNSMockRegistry

/// Expectation files: a matcher value that can never match is refused when the file is read,
/// naming the file, the line and the key path of the field.
@Suite struct ExpectationFileTests {
    static let token = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"

    static func parse(_ yaml: String) throws(ExpectationFileError) -> ExpectationFile {
        try ExpectationFile.parse(yaml: yaml, file: "flow.yaml", baseDirectory: "/", now: 0)
    }

    @Test func badTokenInAStepNamesFileLineAndField() {
        let error = #expect(throws: ExpectationFileError.self) {
            _ = try Self.parse(
                """
                expect:
                  - name: welcome then reminder
                    inOrder: true
                    steps:
                      - match: {token: "\(Self.token)", status: 200}
                      - match:
                          token: abcd-not-hex
                """)
        }
        #expect(error?.file == "flow.yaml")
        #expect(
            error?.message
                == "matcher field 'expect[0].steps[1].match.token' must be an even number of hex digits, 8–256 bytes; got 'abcd-not-hex'"
        )
        #expect(error?.line == 7, "\(error?.description ?? "")")
    }

    @Test(arguments: [
        ("{tokenPrefix: xyz}", "matcher field 'expect[0].match.tokenPrefix' must be the start of a device token"),
        ("{status: 150}", "matcher field 'expect[0].match.status' must be an HTTP status code from 200 to 599"),
        ("{priority: 7}", "matcher field 'expect[0].match.priority' must be an apns-priority: 10, 5 or 1"),
        ("{pushType: banner}", "matcher field 'expect[0].match.pushType' must be one of alert"),
    ])
    func badMatcherValueIsRefused(_ match: String, _ message: String) {
        let error = #expect(throws: ExpectationFileError.self) {
            _ = try Self.parse("expect:\n  - name: w\n    match: \(match)\n")
        }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.description ?? "")")
        #expect(error?.description.hasPrefix("flow.yaml:") == true)
    }

    /// YAML reads an unquoted token of digits only as a number; a token is hex text all the same.
    @Test func unquotedDigitTokensAreText() throws {
        let digits = "5701000000000000000000000000000000000000000000000000000000000001"
        let file = try Self.parse(
            "setup:\n  faults:\n    - {match: {token: \(digits)}, action: {hang: {}}}\nexpect:\n  - name: w\n    match: {token: \(digits), tokenPrefix: 5701}\n"
        )
        #expect(file.expectations.first?.match.conditions == [.token(digits), .tokenPrefix("5701")])
        #expect(file.setup.faults.first?["match"]?["token"] == .string(digits))
    }

    @Test func goodMatcherValuesAreTaken() throws {
        let file = try Self.parse(
            "expect:\n  - name: w\n    match: {token: \"\(Self.token.uppercased())\", priority: 5, status: 410}\n")
        #expect(file.expectations.first?.match.conditions == [.token(Self.token), .priority(5), .status(410)])
    }
}
