/// How the admin API reaches live APNs connections without knowing the transport: the
/// transport implements it, the admin API calls it.
public protocol ConnectionControl: Sendable {
    /// Closes every live APNs connection; returns how many there were.
    func closeAllConnections() async -> Int
}
