import APNSMock
import APNSMockCore
import Foundation
import Testing

/// Waiting, streaming, scoped deletes and reset on the admin API, over real sockets with curl.
@Suite(.serialized) struct AssertionAPITests {
    static func push(
        _ mock: RunningMock, token: String, topic: String = "com.example.app", payload: String = #"{"aps":{}}"#
    ) async throws {
        let output = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", E2E.caFile, "-o", "/dev/null", "-H", E2E.authorizationHeader, "-H",
                "apns-topic: \(topic)", "--data-binary", payload, "\(mock.endpoints.apnsURL)/3/device/\(token)",
            ])
        #expect(output.status == 0, "\(output.stderr)")
    }

    static func sequences(_ body: [String: Any]) -> [Int] {
        (body["deliveries"] as? [[String: Any]])?.compactMap { $0["sequence"] as? Int } ?? []
    }

    @Test func waitReturnsAsSoonAsThePushArrives() async throws {
        try await E2E.withMock { mock in
            let token = E2E.randomToken()
            let clock = ContinuousClock()
            let start = clock.now
            async let waited = E2E.adminGET(
                mock, "/v1/deliveries/wait?count=2&timeout=60&token=\(token)&payload.aps.alert.title=Welcome")
            try await Task.sleep(for: .milliseconds(300))
            try await Self.push(mock, token: token, payload: #"{"aps":{"alert":{"title":"Welcome"}}}"#)
            try await Self.push(mock, token: E2E.randomToken(), payload: #"{"aps":{"alert":{"title":"Welcome"}}}"#)
            try await Self.push(mock, token: token, payload: #"{"aps":{"alert":{"title":"Other"}}}"#)
            try await Self.push(mock, token: token, payload: #"{"aps":{"alert":{"title":"Welcome"}}}"#)
            let (status, body) = try await waited
            #expect(status == 200)
            #expect(body["satisfied"] as? Bool == true)
            #expect(Self.sequences(body) == [1, 4])
            // Woken by the record, long before the 60 s timeout (loose: sanitizers slow everything).
            #expect(clock.now - start < .seconds(40))
        }
    }

    @Test func waitCountsRecordsStoredBeforeTheCallUnlessSinceSaysOtherwise() async throws {
        try await E2E.withMock { mock in
            let token = E2E.randomToken()
            try await Self.push(mock, token: token)
            let (status, body) = try await E2E.adminGET(mock, "/v1/deliveries/wait?count=1&timeout=5&token=\(token)")
            #expect(status == 200 && Self.sequences(body) == [1])
            let (late, partial) = try await E2E.adminGET(
                mock, "/v1/deliveries/wait?count=1&timeout=300ms&token=\(token)&since=1")
            #expect(late == 408)
            #expect(partial["satisfied"] as? Bool == false)
            #expect(Self.sequences(partial).isEmpty)
        }
    }

    @Test func waitTimesOutWithWhatItSaw() async throws {
        try await E2E.withMock { mock in
            let token = E2E.randomToken()
            try await Self.push(mock, token: token)
            let clock = ContinuousClock()
            let start = clock.now
            let (status, body) = try await E2E.adminGET(mock, "/v1/deliveries/wait?count=3&timeout=1&token=\(token)")
            #expect(status == 408)
            #expect(body["count"] as? Int == 1)
            #expect(clock.now - start >= .milliseconds(900))
        }
    }

    @Test(arguments: [
        "count=0", "count=x", "timeout=301", "timeout=-1", "timeout=5x", "tokn=ab", "status=ok", "order=asc",
    ])
    func waitRejectsBadParametersNamingThem(_ query: String) async throws {
        try await E2E.withMock { mock in
            let (status, body) = try await E2E.adminGET(mock, "/v1/deliveries/wait?\(query)")
            #expect(status == 400)
            let name = String(query.prefix { $0 != "=" })
            let message = (body["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("'\(name)'"), "\(message)")
        }
    }

    @Test func eventsStreamNewMatchingRecordsAndResume() async throws {
        try await E2E.withMock { mock in
            let token = E2E.randomToken()
            try await Self.push(mock, token: token)  // before the stream: not sent without Last-Event-ID
            // The stream stays open 10 s: the three pushes below must all land inside it, also under
            // AddressSanitizer on a loaded machine (CI once saw the third miss a 4 s window).
            async let stream = E2E.run(
                "curl", ["-sS", "-N", "--max-time", "10", mock.endpoints.adminURL + "/v1/events?token=\(token)"],
                timeout: 30)
            try await WireTruthTests.awaitFollowers(mock, streams: 1, waiters: 0)
            try await Self.push(mock, token: token)
            try await Self.push(mock, token: E2E.randomToken())
            try await Self.push(mock, token: token)
            let output = try await stream
            let ids = output.stdout.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { $0.dropFirst(4) }
            #expect(ids == ["2", "4"], "\(output.stdout)")
            #expect(output.stdout.contains("event: delivery"))
            let data = output.stdout.split(separator: "\n").first { $0.hasPrefix("data: ") }.map { $0.dropFirst(6) }
            let record = try JSONSerialization.jsonObject(with: Data((data ?? "").utf8)) as? [String: Any]
            #expect(record?["token"] as? String == token)

            // Resuming after event 2 replays 4 at once.
            let resumed = try await E2E.run(
                "curl",
                [
                    "-sS", "-N", "--max-time", "2", "-H", "Last-Event-ID: 2",
                    mock.endpoints.adminURL + "/v1/events?token=\(token)",
                ], timeout: 20)
            #expect(resumed.stdout.split(separator: "\n").filter { $0.hasPrefix("id: ") } == ["id: 4"])
        }
    }

    @Test func scopedDeleteRemovesOnlyTheMatchingRecords() async throws {
        try await E2E.withMock { mock in
            let mine = E2E.randomToken()
            let theirs = E2E.randomToken()
            for token in [mine, theirs, mine] { try await Self.push(mock, token: token) }
            let delete = try await E2E.run(
                "curl", ["-sS", "-X", "DELETE", mock.endpoints.adminURL + "/v1/deliveries?token=\(mine)"])
            #expect(delete.stdout == #"{"deleted":2}"#)
            let (_, left) = try await E2E.adminGET(mock, "/v1/deliveries")
            #expect(Self.sequences(left) == [2])
            #expect(left["total"] as? Int == 1)
            let bad = try await E2E.run(
                "curl", ["-sS", "-X", "DELETE", mock.endpoints.adminURL + "/v1/deliveries?limit=3"])
            #expect(bad.stdout.contains("'limit'"))
        }
    }

    @Test func resetRestoresTheStartUpState() async throws {
        let setupDevice = E2E.randomToken()
        try await E2E.withMock(
            E2E.mockConfiguration { configuration in
                configuration.devices = [DeviceRegistration(token: setupDevice, topic: "com.example.app")]
            }
        ) { mock in
            let runtimeDevice = E2E.randomToken()
            let put = try await E2E.run(
                "curl",
                [
                    "-sS", "-X", "PUT", "-H", "content-type: application/json", "--data", "{}", "-o", "/dev/null", "-w",
                    "%{http_code}", mock.endpoints.adminURL + "/v1/devices/\(runtimeDevice)",
                ])
            #expect(put.stdout == "201")
            try await Self.push(mock, token: setupDevice)
            // A live APNs connection, held open by a TLS client, for closeConnections.
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: try #require(E2E.which("python3")))
            holder.arguments = [
                "-c",
                "import socket,ssl,time,sys;c=ssl.create_default_context(cafile=sys.argv[1]);c.set_alpn_protocols(['h2']);"
                    + "s=c.wrap_socket(socket.create_connection(('127.0.0.1',int(sys.argv[2]))),server_hostname='localhost');"
                    + "s.sendall(b'PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n'+bytes([0,0,0,4,0,0,0,0,0]));\n"
                    + "while s.recv(4096): pass\nprint('closed',flush=True)",
                E2E.caFile, String(mock.apnsPorts[0]),
            ]
            let holderOutput = Pipe()
            holder.standardOutput = holderOutput
            try holder.run()
            defer { if holder.isRunning { holder.terminate() } }
            // Until the connection is live (a loaded machine may take seconds for Python and TLS).
            let live = Date().addingTimeInterval(20)
            while Date() < live {
                let (_, log) = try await E2E.adminGET(mock, "/v1/connections?state=open")
                if (log["connections"] as? [Any])?.isEmpty == false { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let reset = try await E2E.run(
                "curl", ["-sS", "-X", "POST", mock.endpoints.adminURL + "/v1/reset?closeConnections=true"])
            #expect(reset.stdout == #"{"reset":true,"closedConnections":1}"#)
            // Awaited without blocking a thread of the test's pool; ended if the close never came.
            let ending = await E2E.ending(of: holder, within: 20)
            #expect(ending == E2E.Ending(reason: .exit, status: 0), "the held connection was closed")
            if ending == nil { kill(holder.processIdentifier, SIGKILL) }
            let said = String(decoding: holderOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(said == "closed\n")

            let (_, records) = try await E2E.adminGET(mock, "/v1/deliveries")
            #expect(records["total"] as? Int == 0)
            let (runtimeStatus, _) = try await E2E.adminGET(mock, "/v1/devices/\(runtimeDevice)")
            #expect(runtimeStatus == 404)
            let (setupStatus, _) = try await E2E.adminGET(mock, "/v1/devices/\(setupDevice)")
            #expect(setupStatus == 200)
            try await Self.push(mock, token: setupDevice)
            let (_, after) = try await E2E.adminGET(mock, "/v1/deliveries")
            #expect(Self.sequences(after) == [2])
        }
    }
}
