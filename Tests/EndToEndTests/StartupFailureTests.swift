import APNSMock
import APNSMockTransport
import Foundation
import Synchronization
import Testing

/// An in-process mock whose ports are taken fails with a `BindError`, never hangs.
@Suite(.serialized) struct StartupFailureTests {
    @Test(arguments: [BindError.Listener.apns, .admin])
    func portInUseFailsInit(_ taken: BindError.Listener) async throws {
        try await E2E.withMock { holder in
            let port = taken == .apns ? holder.endpoints.apnsPort : holder.endpoints.adminPort
            let configuration = try E2E.mockConfiguration {
                if taken == .apns { $0.port = port } else { $0.adminPort = port }
            }
            let error = await #expect(throws: BindError.self) {
                _ = try await APNSMockApplication(configuration: configuration)
            }
            #expect(error?.listener == taken)
            #expect(error?.reason == .addressInUse)
            #expect(error?.port == port)
        }
    }

    /// The admin port is free when the application is made and taken before it starts: the
    /// admin server's own bind fails inside the service group. The group must cancel the APNs
    /// listener and end, and `start` throw, instead of waiting forever.
    @Test func adminPortTakenAfterInitMakesStartThrow() async throws {
        // The port is one a mock just gave back. Another test's socket may take it before this
        // test does (the kernel hands out ports from one range): then the test starts over with
        // another, at most five times.
        for attempt in 1...5 {
            let port = try await E2E.withMock { earlier in earlier.endpoints.adminPort }
            var settingUp = true
            do {
                let application = try await APNSMockApplication(
                    configuration: E2E.mockConfiguration { $0.adminPort = port })
                try await E2E.withMock(E2E.mockConfiguration { $0.adminPort = port }) { _ in
                    settingUp = false
                    let apnsURL = "https://127.0.0.1:\(application.apnsPorts[0])/3/device/\(E2E.randomToken())"
                    let curl = [
                        "-sS", "--http2", "--cacert", E2E.caFile, "-H", "apns-topic: com.example.app", "-d", "{}",
                    ]
                    // Bound but not serving until the admin server listens too: the TLS handshake waits.
                    let early = try await E2E.run("curl", curl + ["--max-time", "1", apnsURL])
                    #expect(early.status == 28, "curl: \(early.status) \(early.stderr)")

                    let outcome = Mutex<Result<RunningMock, any Error>?>(nil)
                    Task {
                        let result: Result<RunningMock, any Error>
                        do {
                            result = .success(try await RunningMock.start(application))
                        } catch {
                            result = .failure(error)
                        }
                        outcome.withLock { $0 = result }
                    }
                    let deadline = Date().addingTimeInterval(10)
                    while outcome.withLock({ $0 == nil }) && Date() < deadline {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                    let result = try #require(outcome.withLock { $0 }, "RunningMock.start did not return within 10 s")
                    switch result {
                    case .success(let mock):
                        await mock.stop()
                        Issue.record("started although the admin port \(port) was taken")
                    case .failure(let error):
                        let bindError = try #require(error as? BindError, "\(error)")
                        #expect(bindError.listener == .admin)
                        #expect(bindError.reason == .addressInUse)
                        #expect("\(bindError)" == "admin port 127.0.0.1:\(port) is already in use")
                    }
                    // The APNs listener was closed on the way out, never having served.
                    let late = try await E2E.run("curl", curl + ["--max-time", "5", apnsURL])
                    #expect(late.status == 7, "curl: \(late.status) \(late.stderr)")
                }
                return
            } catch let error as BindError where settingUp && error.reason == .addressInUse && attempt < 5 {
                continue
            }
        }
    }
}
