import APNSMockTransport

/// Starts a mock as ``RunningMock/start(configure:now:)`` does, runs `body` with it, and stops
/// it before returning, also when `body` throws: the servers are down, their ports closed and
/// the certificates made for them removed by the time the test goes on.
///
/// ```swift
/// @Test func aNewUserGetsOneWelcomeAlert() async throws {
///     try await withRunningMock { mock in
///         let signingKey = try mock.registerNewKey(keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
///         // … point the provider at mock.apnsURL, trusting mock.caCertificatePEM; push …
///         let records = try await mock.deliveries.wait(count: 1, matching: [.token(device), .status(200)])
///         #expect(records[0].authentication?.keyID == "ABC123DEFG")
///     }
/// }
/// ```
///
/// A test that needs time to pass gives the mock a ``ManualClock`` and moves it:
///
/// ```swift
/// let clock = ManualClock()
/// try await withRunningMock(now: clock.now) { mock in
///     // … POST /v1/modes/unavailable?for=1s: pushes get 503 …
///     clock.advance(by: .seconds(1))
///     // … and now 200 again, with no sleep.
/// }
/// ```
///
/// - Parameters:
///   - configure: changes to the configuration (strict modes, keys and devices at start, your
///     own certificate files, …); runs before anything starts.
///   - now: the clock the mock judges time by, epoch milliseconds (record times, token ages,
///     fault windows, modes with a duration).
///   - isolation: the actor `configure` and `body` run on; the caller's, by default.
///   - body: the test; its result is returned.
/// - Throws: what stopped the mock from starting (`BindError`, `TLSError`, …), or what `body`
///   threw, after the mock has stopped.
@discardableResult
public func withRunningMock<Result>(
    configure: (inout APNSMockConfiguration) -> Void = { _ in },
    now: @escaping @Sendable () -> Int64 = APNSListenerContext.systemNow,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (RunningMock) async throws -> Result
) async throws -> Result {
    let prepared = try RunningMock.prepare(configure: configure)
    return try await run(RunningMock.start(prepared, now: now), body)
}

/// Starts `application` as ``RunningMock/start(_:)`` does, runs `body` with it, and stops it
/// before returning, also when `body` throws.
///
/// ```swift
/// let application = try await APNSMockApplication(configuration: configuration, now: clock.now)
/// try await withRunningMock(application) { mock in
///     // … push to mock.apnsURL, assert on mock.deliveries …
/// }
/// ```
///
/// - Parameters:
///   - application: the mock to start; its clock is the one it was made with.
///   - isolation: the actor `body` runs on; the caller's, by default.
///   - body: the test; its result is returned.
/// - Throws: what stopped the servers before they were ready (a `BindError` for an admin port
///   taken since `APNSMockApplication.init` checked it), or what `body` threw, after the mock
///   has stopped.
@discardableResult
public func withRunningMock<Result>(
    _ application: APNSMockApplication,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (RunningMock) async throws -> Result
) async throws -> Result {
    try await run(RunningMock.start(application), body)
}

/// Runs `body` with `mock` and always awaits `stop()` before returning or rethrowing.
private func run<Result>(
    _ mock: RunningMock, isolation: isolated (any Actor)? = #isolation, _ body: (RunningMock) async throws -> Result
) async throws -> Result {
    let result: Result
    do {
        result = try await body(mock)
    } catch {
        await mock.stop()
        throw error
    }
    await mock.stop()
    return result
}
