/// The admin API was asked to listen where other computers may reach it, with no token: anyone
/// reaching it could read every recorded push and reset the server. Refused at start.
public struct AdminExposureError: Error, Sendable, CustomStringConvertible {
    /// The admin address asked for.
    public let host: String

    public var description: String {
        "the admin API would listen on \(host), which other computers may reach, without a token: "
            + "anyone reaching it could read every recorded push and reset the server. "
            + "Set --admin-token TOKEN (or APNS_MOCK_ADMIN_TOKEN), bind --admin-host 127.0.0.1, "
            + "or pass --admin-insecure to allow it"
    }
}
