/// What APNs keeps of a channel's broadcasts for devices that are offline, fixed when the
/// channel is created (`message-storage-policy` in "Sending channel management requests to
/// APNs"; it cannot be changed later).
public enum MessageStoragePolicy: Int, Sendable, Hashable, CaseIterable, Codable {
    /// `0`: nothing is stored; a broadcast to such a channel must have `apns-expiration` 0.
    case noMessageStored = 0
    /// `1`: the most recent message is stored, for at most 8 hours (a maximum, not a reason to
    /// refuse a later expiration).
    case mostRecentMessageStored = 1
}
