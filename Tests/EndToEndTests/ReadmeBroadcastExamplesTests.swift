import APNSMock
import Foundation
import Testing

/// The README's broadcast section runs as written: its shell blocks, in order, in one bash,
/// against a started mock. Only what cannot be the same differs: the ports (the README's
/// defaults 2197, 2195 and 2198 become the mock's free ports) and the path of the built
/// `apns-mock`.
@Suite struct ReadmeBroadcastExamplesTests {
    static let sectionTitle = "## Broadcast push and channels (Live Activities)"

    /// The ```sh blocks of the README section titled `title`, in order.
    static func shellBlocks(inSection title: String) throws -> [String] {
        let readme = try String(contentsOfFile: E2E.repositoryRoot + "/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: "\n" + title + "\n"), "README has no section '\(title)'")
        var section = readme[start.upperBound...]
        if let end = section.range(of: "\n## ") { section = section[..<end.lowerBound] }
        return section.components(separatedBy: "```sh\n").dropFirst().map {
            String($0.components(separatedBy: "\n```").first ?? "")
        }
    }

    @Test func theBroadcastExamplesRunAsWritten() async throws {
        let blocks = try Self.shellBlocks(inSection: Self.sectionTitle)
        #expect(blocks.count == 2)
        try await E2E.withMock { mock in
            let endpoints = mock.endpoints
            let script =
                "set -euo pipefail\n"
                + blocks.joined(separator: "\n")
                .replacingOccurrences(of: ".build/debug/apns-mock", with: CLITests.executable)
                .replacingOccurrences(of: "localhost:2197", with: "127.0.0.1:\(endpoints.apnsPort)")
                .replacingOccurrences(of: "localhost:2195", with: "127.0.0.1:\(endpoints.channelsPort)")
                .replacingOccurrences(of: "127.0.0.1:2198", with: "127.0.0.1:\(endpoints.adminPort)")
            #expect(!script.contains(":2197") && !script.contains(":2195") && !script.contains(":2198"))
            let output = try await E2E.run(
                "bash", ["-c", "cd \"$0\" && " + script, E2E.repositoryRoot], timeout: 60)
            #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
            let lines = output.stdout.components(separatedBy: "\n")
            let channel = try #require(
                lines.first { $0.hasPrefix("channel ") }.map { String($0.dropFirst("channel ".count)) },
                "\(output.stdout)")
            #expect(Data(base64Encoded: channel) != nil, "a base64 channel id: '\(channel)'")
            #expect(output.stdout.contains(#"{"message-storage-policy":1,"push-type":"LiveActivity"}"#))
            #expect(output.stdout.contains(#"{"channels":["\#(channel)"]}"#))
            #expect(output.stdout.contains("push-to-start: 200"))
            #expect(output.stdout.contains("HTTP/2 200"))
            #expect(output.stdout.contains("apns-unique-id: "))
            // The two admin pages, last (a payload's own line breaks stay inside its JSON).
            let pages = output.stdout.components(separatedBy: #"{"deliveries":"#).dropFirst().map {
                try? JSONSerialization.jsonObject(
                    with: Data((#"{"deliveries":"# + $0).trimmingCharacters(in: .whitespacesAndNewlines).utf8))
                    as? [String: Any]
            }
            #expect(pages.count == 2, "\(output.stdout)")
            // The device's records: the push-to-start, then the broadcast that reached it.
            let records = pages.first??["deliveries"] as? [[String: Any]] ?? []
            #expect(records.map { $0["viaChannel"] as? Bool } == [false, true], "\(output.stdout)")
            let broadcasts = try #require(pages.last ?? nil, "\(output.stdout)")
            #expect((broadcasts["deliveries"] as? [[String: Any]])?.count == 1)
        }
    }
}
