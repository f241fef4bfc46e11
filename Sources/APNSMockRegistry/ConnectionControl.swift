/// How the admin API reaches live APNs connections without knowing the transport: the
/// transport implements it, the admin API calls it.
public protocol ConnectionControl: Sendable {
    /// Closes every live APNs connection; returns how many there were.
    func closeAllConnections() async -> Int
    /// Sends every live APNs connection GOAWAY NO_ERROR with `debugData` (last stream id: the
    /// last it processed); each closes once the streams GOAWAY covers are answered. Returns
    /// how many there were.
    func goAwayAllConnections(debugData: [UInt8]) async -> Int
}
