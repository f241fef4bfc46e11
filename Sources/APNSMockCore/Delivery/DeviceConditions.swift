/// A device's state as the delivery model sees it: whether it is reachable, whether its user
/// allows notifications, whether the app is installed, and the periods when its presence is
/// scheduled to differ. The default (online, enabled, installed, nothing scheduled) is today's
/// behaviour: every accepted push is delivered at once.
public struct DeviceConditions: Sendable, Hashable {
    /// A period of scheduled presence: from `from` (inclusive) to `until` (exclusive), epoch ms.
    public struct Period: Sendable, Hashable {
        public var presence: DevicePresence
        public var from: Int64
        public var until: Int64

        public init(presence: DevicePresence, from: Int64, until: Int64) {
            self.presence = presence
            self.from = from
            self.until = until
        }
    }

    /// The presence outside scheduled periods.
    public var presence: DevicePresence
    /// Whether the user allows the app's notifications (`notifications: enabled`).
    public var notificationsEnabled: Bool
    /// Whether the app is installed. An uninstalled app's pushes are accepted and discarded
    /// (`tokenInactive`) until `unregistersAt`, then answered 410 `Unregistered`.
    public var installed: Bool
    /// When the app was removed (epoch ms; `installed` is false).
    public var uninstalledAt: Int64?
    /// How long after `uninstalledAt` APNs keeps accepting pushes before it answers 410.
    public var uninstallGrace: Int64
    /// Scheduled presence, sorted, not overlapping.
    public var periods: [Period]
    /// Background pushes (`content-available`, push type `background`) delivered per app per
    /// hour before the rest are held; `nil`: no limit (Apple: "two or three per hour" may be
    /// delivered, *Pushing background updates to your App*).
    public var backgroundPushesPerHour: Int?

    /// The uninstall grace period when none is given: five minutes.
    public static let defaultUninstallGrace: Int64 = 5 * 60_000

    public init(
        presence: DevicePresence = .online, notificationsEnabled: Bool = true, installed: Bool = true,
        uninstalledAt: Int64? = nil, uninstallGrace: Int64 = Self.defaultUninstallGrace, periods: [Period] = [],
        backgroundPushesPerHour: Int? = nil
    ) {
        self.presence = presence
        self.notificationsEnabled = notificationsEnabled
        self.installed = installed
        self.uninstalledAt = uninstalledAt
        self.uninstallGrace = uninstallGrace
        self.periods = periods.sorted { $0.from < $1.from }
        self.backgroundPushesPerHour = backgroundPushesPerHour
    }

    /// Online, notifications enabled, installed, nothing scheduled, no background limit.
    public static let standard = DeviceConditions()

    /// Whether the delivery model has anything to do for this device (anything but `standard`).
    public var needsModel: Bool { self != .standard }

    /// The presence at `time`.
    public func presence(at time: Int64) -> DevicePresence {
        for period in periods where period.from <= time && time < period.until { return period.presence }
        return presence
    }

    /// The first time after `time` at which the scheduled presence changes, if any.
    public func nextChange(after time: Int64) -> Int64? {
        for period in periods {
            if period.from > time { return period.from }
            if period.until > time { return period.until }
        }
        return nil
    }

    /// When an uninstalled app's token starts answering 410 `Unregistered`.
    public var unregistersAt: Int64? {
        guard !installed else { return nil }
        let (sum, overflow) = (uninstalledAt ?? 0).addingReportingOverflow(uninstallGrace)
        return overflow ? Int64.max : sum
    }
}
