/// What a device would show for a payload: texts as displayed (localization keys resolved),
/// badge, sound and grouping.
public struct NotificationPreview: Sendable, Hashable {
    /// The sound a notification plays.
    public struct Sound: Sendable, Hashable {
        /// The sound file's name (`default` for the system sound); `nil` when a sound dictionary
        /// names none.
        public var name: String?
        /// Whether the sound is a critical alert (`critical: 1`).
        public var critical: Bool
        /// The critical alert's volume, 0–1, when given.
        public var volume: Double?

        public init(name: String?, critical: Bool = false, volume: Double? = nil) {
            self.name = name
            self.critical = critical
            self.volume = volume
        }
    }

    public var title: String?
    public var subtitle: String?
    public var body: String?
    /// The badge, when `aps.badge` is an integer.
    public var badge: Int?
    public var sound: Sound?
    public var category: String?
    /// `aps.thread-id`.
    public var threadId: String?
    public var interruptionLevel: String?
    /// Whether nothing is shown or played: no title, subtitle or body (or only empty ones), no
    /// sound and no badge.
    public var silent: Bool

    public init(
        title: String? = nil, subtitle: String? = nil, body: String? = nil, badge: Int? = nil,
        sound: Sound? = nil, category: String? = nil, threadId: String? = nil, interruptionLevel: String? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.sound = sound
        self.category = category
        self.threadId = threadId
        self.interruptionLevel = interruptionLevel
        self.silent = Self.isSilent(title: title, subtitle: subtitle, body: body, badge: badge, sound: sound)
    }

    /// Whether a notification with these parts shows and plays nothing.
    static func isSilent(title: String?, subtitle: String?, body: String?, badge: Int?, sound: Sound?) -> Bool {
        [title, subtitle, body].allSatisfy { $0?.isEmpty ?? true } && badge == nil && sound == nil
    }

    /// Writes `{"title","subtitle","body","badge","sound":{"name","critical","volume"},"category",
    /// "threadId","interruptionLevel","silent"}`, leaving out absent parts (`silent` is always there).
    public func write(to writer: inout JSONWriter) {
        jsonValue.write(to: &writer)
    }

    /// The same shape as `write(to:)`, for matching a preview against a subset.
    public var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let title { members.append(("title", .string(title))) }
        if let subtitle { members.append(("subtitle", .string(subtitle))) }
        if let body { members.append(("body", .string(body))) }
        if let badge { members.append(("badge", .integer(Int64(badge)))) }
        if let sound {
            var soundMembers: [(key: String, value: JSONValue)] = []
            if let name = sound.name { soundMembers.append(("name", .string(name))) }
            soundMembers.append(("critical", .bool(sound.critical)))
            if let volume = sound.volume, volume.isFinite {
                soundMembers.append(("volume", .number(volume, text: String(volume))))
            }
            members.append(("sound", .object(soundMembers)))
        }
        if let category { members.append(("category", .string(category))) }
        if let threadId { members.append(("threadId", .string(threadId))) }
        if let interruptionLevel { members.append(("interruptionLevel", .string(interruptionLevel))) }
        members.append(("silent", .bool(silent)))
        return .object(members)
    }
}
