/// What a device's user would see now: the notifications in its notification center, each
/// app's badge, its Live Activities, and what APNs still holds for it. Built, by pure rules,
/// from the records the store keeps for the device (with their `delivery`) and the pushes its
/// inbox holds; time is passed in.
///
/// The rules, and the pages they come from:
/// - Only what was delivered shows (`delivery.state == delivered`); stored and discarded pushes
///   never do, and a rejected push has no delivery at all.
/// - A notification is a delivered `alert` push whose preview has text to show (a title,
///   subtitle or body); an alert with only a badge or a sound sets the badge or plays, and
///   leaves nothing in the notification center.
/// - Collapse: *Sending notification requests to APNs*, the `apns-collapse-id` row: "Multiple
///   notifications with the same collapse identifier are displayed to the user as a single
///   notification". The newest delivered one of an app's topic and collapse id is shown; the
///   older ones it replaced are counted in its `replaced`.
/// - Notifications are listed newest first, by delivery time (a stored push delivered when the
///   device came back online is as new as that moment), then by sequence number.
/// - Badge (*Generating a remote notification*, `badge`): the number the newest delivered push
///   of the topic that had an integer `aps.badge` set; `nil` while none did.
/// - Live Activities: `DeviceView.LiveActivity`.
public struct DeviceView: Sendable, Hashable {
    /// One notification as the notification center shows it.
    public struct Notification: Sendable, Hashable {
        public var sequence: UInt64
        public var apnsID: String
        public var topic: String?
        public var collapseID: String?
        /// When it reached the device, epoch ms.
        public var deliveredAt: Int64
        /// What it shows (`nil` when the payload is no JSON object).
        public var preview: NotificationPreview?
        /// How many older delivered notifications with its topic and collapse id it replaced.
        public var replaced: Int

        public init(
            sequence: UInt64, apnsID: String, topic: String?, collapseID: String?, deliveredAt: Int64,
            preview: NotificationPreview?, replaced: Int = 0
        ) {
            self.sequence = sequence
            self.apnsID = apnsID
            self.topic = topic
            self.collapseID = collapseID
            self.deliveredAt = deliveredAt
            self.preview = preview
            self.replaced = replaced
        }
    }

    /// An app's badge.
    public struct Badge: Sendable, Hashable {
        public var topic: String
        /// The number shown; `nil` while no delivered push set one.
        public var badge: Int?
        /// The push that set it.
        public var sequence: UInt64?

        public init(topic: String, badge: Int?, sequence: UInt64?) {
            self.topic = topic
            self.badge = badge
            self.sequence = sequence
        }
    }

    /// A push APNs holds for the device.
    public struct Stored: Sendable, Hashable {
        public var sequence: UInt64
        /// `nil` when its record is no longer stored.
        public var apnsID: String?
        /// The record's topic; when the record is no longer stored, the push's storage slot (its
        /// topic, or for a broadcast's delivery its channel), the only name left.
        public var topic: String?
        /// For a broadcast's delivery, its channel (known while its record is stored).
        public var channelID: String?
        public var cause: DeliveryInbox.Held.Cause
        /// When APNs started holding it, epoch ms.
        public var storedAt: Int64
        /// When it expires, epoch ms.
        public var until: Int64
        public var preview: NotificationPreview?

        public init(
            sequence: UInt64, apnsID: String?, topic: String?, channelID: String?, cause: DeliveryInbox.Held.Cause,
            storedAt: Int64, until: Int64, preview: NotificationPreview?
        ) {
            self.sequence = sequence
            self.apnsID = apnsID
            self.topic = topic
            self.channelID = channelID
            self.cause = cause
            self.storedAt = storedAt
            self.until = until
            self.preview = preview
        }
    }

    /// The device token (lower-case hex).
    public var token: String
    /// The time the view is of, epoch ms (the mock clock).
    public var now: Int64
    /// The device's conditions, as the delivery model last judged them.
    public var conditions: DeviceConditions
    /// The notifications shown, newest first.
    public var notifications: [Notification]
    /// Each app's badge, by topic.
    public var badges: [Badge]
    /// Live Activities, the most recently updated first.
    public var liveActivities: [LiveActivity]
    /// What APNs holds for the device, in the order it took them.
    public var stored: [Stored]

    /// Builds the view.
    /// - Parameters:
    ///   - pushes: the records the store holds for the device, in any order.
    ///   - held: what APNs holds for it (`DeliveryStore.heldPushes(of:)`), with the record each
    ///     came from, when still stored.
    ///   - now: the time of the view (epoch ms): presence, staleness and dismissal depend on it.
    public init(
        token: String, conditions: DeviceConditions = .standard, pushes: [DeviceViewPush],
        held: [(held: DeliveryInbox.Held, push: DeviceViewPush?)] = [], now: Int64
    ) {
        self.token = token
        self.now = now
        self.conditions = conditions
        let delivered = pushes.compactMap { push in push.deliveredAt.map { (push: push, at: $0) } }
            .sorted { ($0.at, $0.push.sequence) < ($1.at, $1.push.sequence) }
        notifications = Self.notifications(delivered)
        badges = Self.badges(delivered)
        liveActivities = LiveActivity.activities(delivered)
        stored = held.map { item in
            let push = item.push
            let storedAt = push?.delivery.flatMap { $0.state == .stored ? $0.at : nil } ?? item.held.push.acceptedAt
            return Stored(
                sequence: item.held.push.sequence, apnsID: push?.apnsID,
                topic: push?.topic ?? (push == nil && !item.held.push.slot.isEmpty ? item.held.push.slot : nil),
                channelID: push?.channelID, cause: item.held.cause, storedAt: storedAt,
                until: item.held.push.expiresAt, preview: push?.preview)
        }
    }

    /// The device's presence now.
    public var presence: DevicePresence { conditions.presence(at: now) }

    /// The notifications a delivered push list (oldest first) leaves shown, newest first.
    private static func notifications(_ delivered: [(push: DeviceViewPush, at: Int64)]) -> [Notification] {
        struct CollapseKey: Hashable {
            var topic: String?
            var collapseID: String
        }
        var shown: [Notification?] = []
        var byCollapse: [CollapseKey: Int] = [:]
        for (push, at) in delivered where push.pushType == .alert && hasText(push.preview) {
            var notification = Notification(
                sequence: push.sequence, apnsID: push.apnsID, topic: push.topic, collapseID: push.collapseID,
                deliveredAt: at, preview: push.preview)
            if let collapseID = push.collapseID {
                let key = CollapseKey(topic: push.topic, collapseID: collapseID)
                if let index = byCollapse[key], let older = shown[index] {
                    notification.replaced = older.replaced + 1
                    shown[index] = nil
                }
                byCollapse[key] = shown.count
            }
            shown.append(notification)
        }
        return shown.compactMap { $0 }.reversed()
    }

    /// Whether a preview has a title, subtitle or body that is not empty.
    static func hasText(_ preview: NotificationPreview?) -> Bool {
        guard let preview else { return false }
        return [preview.title, preview.subtitle, preview.body].contains { !($0?.isEmpty ?? true) }
    }

    /// Each topic's badge: every topic with a delivered alert push, or a delivered push that
    /// set a badge; sorted by topic.
    private static func badges(_ delivered: [(push: DeviceViewPush, at: Int64)]) -> [Badge] {
        var badges: [String: Badge] = [:]
        for (push, _) in delivered {
            guard let topic = push.topic else { continue }
            if let badge = push.preview?.badge {
                badges[topic] = Badge(topic: topic, badge: badge, sequence: push.sequence)
            } else if push.pushType == .alert, badges[topic] == nil {
                badges[topic] = Badge(topic: topic, badge: nil, sequence: nil)
            }
        }
        return badges.values.sorted { $0.topic < $1.topic }
    }
}
