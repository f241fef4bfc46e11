import APNSMock
import Foundation
import Testing

/// The CLI reads the admin API through a library (SwiftNIO's HTTP/1.1 client), so an answer that
/// is not HTTP, or breaks off, is an error in words (exit 2), never a body cut short in silence.
@Suite struct CLIAnswerTests {
    /// A canned answer, what `apns-mock deliveries --json` says to it, and its exit status.
    static let answers: [(name: String, answer: String, stderr: String)] = [
        (
            "a chunk size that is not hexadecimal",
            "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{\"del\r\nzz\r\niveries\":[]}\r\n0\r\n\r\n",
            "no usable answer from the admin API at URL: the answer is not valid HTTP: a chunk's size is not a hexadecimal number"
        ),
        (
            "chunks that stop before the last one",
            "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{\"del\r\n",
            "no usable answer from the admin API at URL: the answer is not valid HTTP: the connection closed before the answer ended"
        ),
        (
            "a body shorter than its content-length",
            "HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{\"deliveries\":[",
            "no usable answer from the admin API at URL: the answer is not valid HTTP: the connection closed before the answer ended"
        ),
        (
            "no status line",
            "hello there\r\n\r\n",
            "no usable answer from the admin API at URL: the answer is not valid HTTP"
        ),
        (
            "nothing at all",
            "",
            "no usable answer from the admin API at URL: the connection closed before an answer came"
        ),
    ]

    @Test(arguments: answers)
    func aMalformedAnswerIsAnErrorInWords(_ row: (name: String, answer: String, stderr: String)) async throws {
        let server = try CannedHTTPServer(answer: Array(row.answer.utf8))
        defer { server.stop() }
        let output = try await AdminCLITests.cli(["deliveries", "--json", "--admin", server.url])
        #expect(output.status == 2, "\(row.name): \(output.stderr)")
        #expect(output.stdout.isEmpty, "\(row.name): \(output.stdout)")
        let expected = "apns-mock deliveries: " + row.stderr.replacingOccurrences(of: "URL", with: server.url)
        #expect(output.stderr.hasPrefix(expected), "\(row.name): \(output.stderr)")
    }

    /// A well-formed chunked answer is read whole, and one that says 401 is the token's message.
    @Test func aChunkedAnswerIsReadWhole() async throws {
        let body = #"{"deliveries":[],"next":null}"#
        let chunks = body.utf8.count
        let answer =
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
            + "5\r\n\(body.prefix(5))\r\n\(String(chunks - 5, radix: 16))\r\n\(body.dropFirst(5))\r\n0\r\n\r\n"
        let server = try CannedHTTPServer(answer: Array(answer.utf8))
        defer { server.stop() }
        let output = try await AdminCLITests.cli(["deliveries", "--json", "--admin", server.url, "limit=1"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == body + "\n")
    }

    @Test func aRefusedTokenIsExitTwoWithTheTokenMessage() async throws {
        let server = try CannedHTTPServer(
            answer: Array("HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n".utf8))
        defer { server.stop() }
        let output = try await AdminCLITests.cli(["fault", "list", "--admin", server.url])
        #expect(output.status == 2)
        #expect(output.stderr.contains("requires a token it did not get or that does not match"), "\(output.stderr)")
    }

    /// A server that takes the request and never answers: the command's timeout, in words.
    @Test func noAnswerWithinTheTimeoutSaysSo() async throws {
        let server = try CannedHTTPServer(answer: [], holdSeconds: 5)
        defer { server.stop() }
        let output = try await AdminCLITests.cli(["healthcheck", "--admin", server.url, "--timeout", "1"])
        #expect(output.status == 1)
        #expect(
            output.stderr == "apns-mock healthcheck: cannot reach \(server.url): no complete answer within 1 s\n",
            "\(output.stderr)")
    }

    /// `--admin` given an APNs or channel-management port (the TLS ones): the command says which
    /// port it reached and where the admin API is, instead of "use https://" (which, followed,
    /// only led to "--admin must be a URL").
    @Test func anAPNsOrChannelPortGivenAsTheAdminAPISaysWhichPortItIs() async throws {
        try await E2E.withMock { mock in
            let apns = "http://127.0.0.1:\(mock.endpoints.apnsPort)"
            let output = try await AdminCLITests.cli(["deliveries", "--admin", apns])
            #expect(output.status == 2)
            #expect(
                output.stderr.hasPrefix("apns-mock deliveries: \(apns) is an APNs port, not the admin API: "),
                "\(output.stderr)")
            #expect(output.stderr.contains("such as http://127.0.0.1:2198"), "\(output.stderr)")
            let health = try await AdminCLITests.cli(["healthcheck", "--admin", apns])
            #expect(health.status == 1)
            #expect(health.stderr.contains("is an APNs port, not the admin API"), "\(health.stderr)")
            let https = try await AdminCLITests.cli([
                "deliveries", "--admin", "https://127.0.0.1:\(mock.endpoints.apnsPort)",
            ])
            #expect(https.status == 2)
            #expect(
                https.stderr.contains("https:// is how the APNs and channel-management ports are reached"),
                "\(https.stderr)")
        }
    }

    /// Nothing listens: the system's words, as before.
    @Test func aPortNobodyListensOnIsConnectionRefused() async throws {
        let output = try await AdminCLITests.cli(["deliveries", "--admin", "http://127.0.0.1:1"])
        #expect(output.status == 2)
        #expect(
            output.stderr
                == "apns-mock deliveries: cannot reach the admin API at http://127.0.0.1:1: connection refused\n",
            "\(output.stderr)")
    }

    /// The CLI has no socket code of its own: no file of `Sources/apns-mock` calls the socket API.
    @Test func theCLIHasNoSocketCode() throws {
        let directory = E2E.repositoryRoot + "/Sources/apns-mock"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        let socketCalls = [
            "import Glibc", "import Darwin", "import Musl", "socket(", "connect(", "getaddrinfo", "setsockopt", "recv(",
            "send(socketFD", "SOCK_STREAM", "sockaddr", "addrinfo",
        ]
        for file in files {
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            for call in socketCalls {
                #expect(!text.contains(call), "\(file) uses \(call)")
            }
        }
    }
}
