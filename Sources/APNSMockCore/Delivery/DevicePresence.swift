/// Whether a device can be reached: what APNs does with a push it accepted depends on it
/// (Apple: *Sending notification requests to APNs*, "If APNs can't deliver a notification
/// immediately because the device is offline, it stores the notification").
public enum DevicePresence: String, Sendable, Hashable, CaseIterable {
    /// Reachable: pushes are delivered at once.
    case online
    /// Unreachable: APNs keeps the newest push for each app until it expires.
    case offline
    /// Saving power: priority-10 pushes are delivered; priority-5 and priority-1 pushes are held
    /// until the device leaves this state (Apple: the `apns-priority` row, "deliver it based on
    /// power considerations on the user's device").
    case lowPower
}
