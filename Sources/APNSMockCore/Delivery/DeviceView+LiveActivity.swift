extension DeviceView {
    /// A Live Activity as the device shows it, from the `liveactivity` pushes delivered to it.
    ///
    /// Activities are keyed by where their pushes come from: a push to the device (its token
    /// and topic: the mock has no separate activity tokens) or a broadcast's delivery (its
    /// channel). The rules (*Starting and updating Live Activities with ActivityKit push
    /// notifications*, and the payload keys of *Generating a remote notification*):
    /// - `aps.event` is `start`, `update` or `end`; a push with another or none changes nothing.
    /// - `aps.content-state` is "the updated or final content": a start, an update and an end
    ///   that carry it set `contentState`.
    /// - `aps.stale-date` (epoch seconds) is set by each start or update (absent: none); the
    ///   activity is `stale` from then until it ends.
    /// - An `end` ends it; `aps.dismissal-date` (epoch seconds) says when the system removes
    ///   it. Without one, the default dismissal policy (ActivityKit's
    ///   `ActivityUIDismissalPolicy.default`) keeps an ended activity "for up to four hours";
    ///   the view takes the four hours.
    /// - An update after the end changes nothing (an ended activity takes no updates); a new
    ///   `start` begins a new activity in its place.
    /// - An `update` with no earlier start seen is an activity the app started itself: it is
    ///   shown from that update on.
    public struct LiveActivity: Sendable, Hashable {
        /// The topic of its pushes (for a push to the device; a broadcast's delivery carries
        /// the broadcast's topic when the record has it).
        public var topic: String?
        /// The channel, for an activity updated by broadcasts.
        public var channelID: String?
        /// The last event applied: `start`, `update` or `end`.
        public var event: String
        /// `aps.content-state` of the newest event that carried one.
        public var contentState: JSONValue?
        /// When it becomes stale, epoch ms.
        public var staleDate: Int64?
        /// When the system removes it after its end, epoch ms (`dismissal-date`, or four hours
        /// after the end).
        public var dismissalDate: Int64?
        /// Whether an `end` was delivered.
        public var ended: Bool
        /// When the end was delivered, epoch ms.
        public var endedAt: Int64?
        /// When the last applied push was delivered, epoch ms.
        public var updatedAt: Int64
        /// The last applied push.
        public var sequence: UInt64
        public var apnsID: String
        /// How many pushes were applied since its start (or its first update seen).
        public var pushes: Int

        /// How long an ended activity stays without a `dismissal-date`: four hours.
        public static let defaultDismissalDelay: Int64 = 4 * 3_600_000

        /// Whether it is past its stale date at `now` (an ended activity is not stale).
        public func isStale(at now: Int64) -> Bool {
            guard !ended, let staleDate else { return false }
            return now >= staleDate
        }

        /// Whether the system has removed it at `now` (ended and past its dismissal date).
        public func isDismissed(at now: Int64) -> Bool {
            guard ended, let dismissalDate else { return false }
            return now >= dismissalDate
        }

        /// The activities `delivered` (oldest first) leave, the most recently updated first.
        static func activities(_ delivered: [(push: DeviceViewPush, at: Int64)]) -> [LiveActivity] {
            struct Key: Hashable {
                var topic: String?
                var channelID: String?
            }
            var activities: [Key: LiveActivity] = [:]
            for (push, at) in delivered where push.pushType == .liveactivity {
                guard case .string(let event)? = push.aps?["event"] else { continue }
                let key = push.channelID.map { Key(topic: nil, channelID: $0) } ?? Key(topic: push.topic)
                let current = activities[key]
                switch event {
                case "start":
                    activities[key] = LiveActivity(starting: push, event: event, at: at)
                case "update":
                    guard var activity = current else {
                        activities[key] = LiveActivity(starting: push, event: event, at: at)
                        continue
                    }
                    guard !activity.ended else { continue }
                    activity.apply(push, event: event, at: at)
                    activity.staleDate = Self.milliseconds(push.aps?["stale-date"])
                    activities[key] = activity
                case "end":
                    var activity = current ?? LiveActivity(starting: push, event: event, at: at)
                    if current != nil {
                        guard !activity.ended else { continue }
                        activity.apply(push, event: event, at: at)
                    }
                    activity.ended = true
                    activity.endedAt = at
                    activity.dismissalDate =
                        Self.milliseconds(push.aps?["dismissal-date"]) ?? at + Self.defaultDismissalDelay
                    activities[key] = activity
                default:
                    continue
                }
            }
            return activities.values.sorted { ($0.updatedAt, $0.sequence) > ($1.updatedAt, $1.sequence) }
        }

        private init(starting push: DeviceViewPush, event: String, at: Int64) {
            self.topic = push.topic
            self.channelID = push.channelID
            self.event = event
            self.contentState = push.aps?["content-state"]
            self.staleDate = event == "end" ? nil : Self.milliseconds(push.aps?["stale-date"])
            self.dismissalDate = nil
            self.ended = false
            self.endedAt = nil
            self.updatedAt = at
            self.sequence = push.sequence
            self.apnsID = push.apnsID
            self.pushes = 1
        }

        private mutating func apply(_ push: DeviceViewPush, event: String, at: Int64) {
            self.event = event
            if let contentState = push.aps?["content-state"] { self.contentState = contentState }
            updatedAt = at
            sequence = push.sequence
            apnsID = push.apnsID
            pushes += 1
        }

        /// Epoch seconds (a JSON number) as epoch ms; `nil` when absent or not a usable number.
        static func milliseconds(_ value: JSONValue?) -> Int64? {
            guard case .number(let seconds, _)? = value, seconds.isFinite, seconds >= 0, seconds < 9e15 / 1000 else {
                return nil
            }
            return Int64((seconds * 1000).rounded())
        }
    }
}
