import APNSMock
import Foundation
import Testing

/// curl (Debian) over real TLS with ALPN h2.
@Suite(.serialized) struct CurlTests {
    @Test func pushIsAcceptedAndRecorded() async throws {
        try await E2E.withMock { mock in
            let token = E2E.randomToken()
            let apnsID = E2E.newAPNSID().lowercased()
            let output = try await E2E.run(
                "curl",
                [
                    "-sS", "--http2", "--cacert", E2E.caFile, "-D", "-", "-H",
                    "authorization: bearer \(try E2E.providerToken())",
                    "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert", "-H", "apns-id: \(apnsID)",
                    "-H", "apns-priority: 5", "-H", "apns-expiration: 0", "-H", "apns-collapse-id: c1",
                    "--data-binary", #"{"aps":{"alert":{"title":"Hi"}},"k":1}"#,
                    "\(mock.endpoints.apnsURL)/3/device/\(token)",
                ])
            #expect(output.status == 0, "\(output.stderr)")
            let head = output.stdout.lowercased()
            #expect(head.hasPrefix("http/2 200"))
            #expect(head.contains("apns-id: \(apnsID)"))
            #expect(head.contains("apns-unique-id: "))

            let records = try await E2E.deliveries(mock, token: token)
            #expect(records.count == 1)
            let record = try #require(records.first)
            #expect(record["apnsId"] as? String == apnsID)
            #expect(record["topic"] as? String == "com.example.app")
            #expect(record["pushType"] as? String == "alert")
            #expect(record["priority"] as? Int == 5)
            #expect(record["expiration"] as? Int == 0)
            #expect(record["collapseId"] as? String == "c1")
            #expect(record["environment"] as? String == "sandbox")
            #expect(record["payloadKind"] as? String == "object")
            #expect(((record["payload"] as? [String: Any])?["k"] as? Int) == 1)
            #expect((record["response"] as? [String: Any])?["status"] as? Int == 200)
            let authorization = try #require(record["authorization"] as? [String: Any])
            #expect((authorization["header"] as? [String: Any])?["kid"] as? String == E2E.keyID)
            #expect((authorization["claims"] as? [String: Any])?["iss"] as? String == E2E.teamID)
            let headers = try #require(record["headers"] as? [String: Any])
            let sent = try E2E.providerToken()
            let signature = String(sent.split(separator: ".").last!)
            #expect(!(headers["authorization"] as? String ?? "").contains(signature))

            let (status, single) = try await E2E.adminGET(mock, "/v1/deliveries/\(apnsID.uppercased())")
            #expect(status == 200)
            #expect(single["sequence"] as? Int == record["sequence"] as? Int)
        }
    }

    @Test func rejectionCarriesReasonJSON() async throws {
        try await E2E.withMock { mock in
            let output = try await E2E.run(
                "curl",
                [
                    "-sS", "--http2", "--cacert", E2E.caFile, "-w", "\n%{http_code}", "-H", E2E.authorizationHeader,
                    "-H",
                    "apns-topic: com.example.app",
                    "-H", "apns-push-type: voip", "--data-binary", "{}",
                    "\(mock.endpoints.apnsURL)/3/device/\(E2E.randomToken())",
                ])
            #expect(output.stdout == "{\"reason\":\"BadTopic\"}\n400")
        }
    }

    @Test func tooLargeBodyAnsweredEarlyOverOneWindow() async throws {
        try await E2E.withMock { mock in
            let big = String(repeating: "x", count: 1_000_000)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "apns-mock-big-\(UUID().uuidString)")
            try big.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let output = try await E2E.run(
                "curl",
                [
                    "-sS", "--http2", "--cacert", E2E.caFile, "-w", "\n%{http_code}", "-H", E2E.authorizationHeader,
                    "-H",
                    "apns-topic: com.example.app",
                    "--data-binary", "@\(file.path)", "\(mock.endpoints.apnsURL)/3/device/\(E2E.randomToken())",
                ])
            #expect(
                output.stdout.hasPrefix("{\"reason\":\"PayloadTooLarge\"}\n413"), "\(output.stdout) \(output.stderr)")
        }
    }

    /// A client that offers ALPN without h2 gets the no_application_protocol alert.
    @Test func http1OnlyALPNIsRefusedWithAnAlert() async throws {
        try await E2E.withMock { mock in
            let output = try await E2E.run(
                "curl", ["-sS", "--http1.1", "--cacert", E2E.caFile, "\(mock.endpoints.apnsURL)/3/device/abcd"])
            #expect(output.status != 0)
            #expect(output.stderr.contains("no application protocol"))
            #expect(mock.deliveries.count == 0)
        }
    }

    /// No ALPN at all, then HTTP/1.1: a plain-text HTTP/1.1 answer that says why.
    @Test func http1WithoutALPNGetsAPlainAnswer() async throws {
        try await E2E.withMock { mock in
            let output = try await E2E.run(
                "openssl",
                ["s_client", "-quiet", "-connect", "127.0.0.1:\(mock.endpoints.apnsPort)", "-CAfile", E2E.caFile],
                stdin: "POST /3/device/abcd HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n", timeout: 20)
            #expect(output.stdout.hasPrefix("HTTP/1.1 505 HTTP Version Not Supported\r\n"), "\(output.stdout)")
            #expect(output.stdout.contains("APNs speaks HTTP/2 only"))
        }
    }

    /// ALPN chose h2, then the bytes are not the HTTP/2 preface: a connection error, GOAWAY
    /// PROTOCOL_ERROR (RFC 9113 §3.4; h2spec http2/3.5/2), not the HTTP/1.1 text meant for a
    /// client that offered no ALPN.
    @Test func badPrefaceAfterALPNh2GetsGoAwayProtocolError() async throws {
        try await E2E.withMock { mock in
            let script = """
                import socket, ssl, sys
                c = ssl.create_default_context(cafile=sys.argv[1]); c.set_alpn_protocols(['h2'])
                s = c.wrap_socket(socket.create_connection(('127.0.0.1', int(sys.argv[2]))), server_hostname='localhost')
                s.sendall(b'POST /3/device/abcd HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n')
                data = b''
                while True:
                    chunk = s.recv(4096)
                    if not chunk: break
                    data += chunk
                frames = []
                while len(data) >= 9:
                    length = int.from_bytes(data[0:3], 'big'); kind = data[3]; body = data[9:9 + length]
                    if kind == 7: frames.append('GOAWAY %d %d' % (int.from_bytes(body[0:4], 'big'), int.from_bytes(body[4:8], 'big')))
                    else: frames.append('type %d' % kind)
                    data = data[9 + length:]
                print(','.join(frames))
                """
            let output = try await E2E.run(
                try #require(E2E.which("python3")), ["-c", script, E2E.caFile, String(mock.endpoints.apnsPort)],
                timeout: 20)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout == "type 4,GOAWAY 0 1\n", "SETTINGS, then GOAWAY last-stream 0 PROTOCOL_ERROR")
            #expect(mock.deliveries.count == 0)
        }
    }

    /// `http://` on the TLS port (HTTP/1.1, or HTTP/2 with prior knowledge): a 400 whose text
    /// says to use `https://`, nothing recorded; TLS clients are served as before.
    @Test(arguments: [[String](), ["--http2-prior-knowledge"]])
    func cleartextOnTheTLSPortGetsA400InWords(_ flags: [String]) async throws {
        try await E2E.withMock { mock in
            let output = try await E2E.run(
                "curl",
                ["-sS", "-w", "\n%{http_code} %{http_version}"] + flags + [
                    "-H", "apns-topic: com.example.app", "--data-binary", "{}",
                    "http://127.0.0.1:\(mock.endpoints.apnsPort)/3/device/\(E2E.randomToken())",
                ], timeout: 20)
            #expect(output.status == 0, "\(output.stderr)")
            let lines = output.stdout.split(separator: "\n").map(String.init)
            #expect(lines.last == (flags.isEmpty ? "400 1.1" : "400 2"), "\(output.stdout)")
            #expect(output.stdout.contains("this port speaks TLS: it is an APNs port (HTTP/2 over TLS, like APNs)"))
            #expect(output.stdout.contains("Use https://"))
            #expect(mock.deliveries.count == 0)

            let tls = try await E2E.run(
                "curl",
                [
                    "-sS", "--http2", "--cacert", E2E.caFile, "-o", "/dev/null", "-w", "%{http_code}", "-H",
                    E2E.authorizationHeader, "-H", "apns-topic: com.example.app", "--data-binary", "{}",
                    "\(mock.endpoints.apnsURL)/3/device/\(E2E.randomToken())",
                ])
            #expect(tls.stdout == "200", "\(tls.stderr)")
            #expect(mock.deliveries.count == 1)
        }
    }

    @Test func everyConfiguredPortServesAPNs() async throws {
        try await E2E.withMock(E2E.mockConfiguration { $0.additionalPorts = [0] }) { mock in
            #expect(mock.apnsPorts.count == 2)
            for port in mock.apnsPorts {
                let output = try await E2E.run(
                    "curl",
                    [
                        "-sS", "--http2", "--cacert", E2E.caFile, "-o", "/dev/null", "-w", "%{http_code}", "-H",
                        E2E.authorizationHeader, "-H", "apns-topic: com.example.app", "--data-binary", "{}",
                        "https://127.0.0.1:\(port)/3/device/\(E2E.randomToken())",
                    ])
                #expect(output.stdout == "200", "port \(port): \(output.stderr)")
            }
            #expect(mock.deliveries.count == 2)
        }
    }

    @Test func tls12IsAccepted() async throws {
        try await E2E.withMock { mock in
            let output = try await E2E.run(
                "curl",
                [
                    "-sS", "--http2", "--tlsv1.2", "--tls-max", "1.2", "--cacert", E2E.caFile, "-o", "/dev/null", "-w",
                    "%{http_code}", "-H", E2E.authorizationHeader, "-H", "apns-topic: com.example.app", "--data-binary",
                    "{}",
                    "\(mock.endpoints.apnsURL)/3/device/\(E2E.randomToken())",
                ])
            #expect(output.stdout == "200", "\(output.stderr)")
        }
    }
}
