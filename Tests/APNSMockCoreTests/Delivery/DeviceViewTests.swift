import APNSMockCore
import Testing

/// `DeviceView`: what a device's user sees, from its records and what APNs holds for it.
@Suite("DeviceView")
struct DeviceViewTests {
    static let app = "com.example.app"
    static let activityTopic = "com.example.app.push-type.liveactivity"

    /// A push with sequence `sequence`: an alert titled "n<sequence>" delivered at
    /// `1000 × sequence` unless told otherwise.
    static func push(
        _ sequence: UInt64, type: APNSPushType = .alert, topic: String = app, collapse: String? = nil,
        delivery: DeviceDelivery? = nil, rejected: Bool = false, badge: Int? = nil, silent: Bool = false,
        channel: String? = nil, aps: JSONValue? = nil
    ) -> DeviceViewPush {
        let preview =
            silent
            ? NotificationPreview(badge: badge) : NotificationPreview(title: "n\(sequence)", badge: badge)
        return DeviceViewPush(
            sequence: sequence, apnsID: "ID-\(sequence)", topic: topic, pushType: type, collapseID: collapse,
            channelID: channel, delivery: rejected ? nil : delivery ?? .delivered(at: Int64(sequence) * 1000),
            preview: preview,
            aps: aps)
    }

    static func view(_ pushes: [DeviceViewPush], now: Int64 = 1_000_000) -> DeviceView {
        DeviceView(token: "abab", pushes: pushes, now: now)
    }

    // MARK: notifications

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var pushes: [DeviceViewPush]
        /// The sequence numbers shown, in order.
        var shown: [UInt64]
        var testDescription: String { name }
    }

    static let notificationRows: [Row] = [
        Row(name: "each delivered alert shows, newest first", pushes: [push(1), push(2), push(3)], shown: [3, 2, 1]),
        Row(
            name: "the same collapse id shows once: the newest",
            pushes: [push(1, collapse: "score"), push(2, collapse: "score"), push(3, collapse: "score")], shown: [3]),
        Row(
            name: "different collapse ids, and none, each show",
            pushes: [push(1, collapse: "a"), push(2, collapse: "b"), push(3), push(4)], shown: [4, 3, 2, 1]),
        Row(
            name: "a collapse id is per topic",
            pushes: [push(1, collapse: "a"), push(2, topic: "com.example.other", collapse: "a")], shown: [2, 1]),
        Row(
            name: "the replacement takes the newest place",
            pushes: [push(1, collapse: "a"), push(2), push(3, collapse: "a")], shown: [3, 2]),
        Row(
            name: "newest by delivery time: a held push delivered later is newer than a later sequence",
            pushes: [push(1, delivery: .delivered(at: 9000)), push(2, delivery: .delivered(at: 5000))], shown: [1, 2]),
        Row(
            name: "collapse by delivery time: the one delivered last wins",
            pushes: [
                push(1, collapse: "a", delivery: .delivered(at: 9000)),
                push(2, collapse: "a", delivery: .delivered(at: 5000)),
            ],
            shown: [1]),
        Row(
            name: "same delivery time: the higher sequence is newer",
            pushes: [push(2, delivery: .delivered(at: 7000)), push(1, delivery: .delivered(at: 7000))], shown: [2, 1]),
        Row(
            name: "stored pushes do not show",
            pushes: [push(1), push(2, delivery: .stored(at: 2000, until: 99_000))], shown: [1]),
        Row(
            name: "discarded pushes do not show, whatever the reason",
            pushes: [
                push(1, delivery: .discarded(.expired, at: 1000)), push(2, delivery: .discarded(.replaced, at: 2000)),
                push(3, delivery: .discarded(.notificationsDisabled, at: 3000)),
                push(4, delivery: .discarded(.tokenInactive, at: 4000)), push(5),
            ],
            shown: [5]),
        Row(
            name: "a rejected push (no delivery) does not show", pushes: [push(1, rejected: true), push(2)], shown: [2]),
        Row(
            name: "a stored push does not replace a shown one with its collapse id",
            pushes: [push(1, collapse: "a"), push(2, collapse: "a", delivery: .stored(at: 2000, until: 99_000))],
            shown: [1]),
        Row(
            name: "background, voip and Live Activity pushes are no notifications",
            pushes: [push(1, type: .background), push(2, type: .voip), push(3, type: .liveactivity), push(4)],
            shown: [4]),
        Row(name: "a badge-only alert shows nothing", pushes: [push(1), push(2, badge: 3, silent: true)], shown: [1]),
        Row(
            name: "an alert with a subtitle or a body alone shows; one whose texts are empty does not",
            pushes: [
                DeviceViewPush(
                    sequence: 1, apnsID: "ID-1", topic: app, pushType: .alert, delivery: .delivered(at: 1000),
                    preview: NotificationPreview(body: "Body only")),
                DeviceViewPush(
                    sequence: 2, apnsID: "ID-2", topic: app, pushType: .alert, delivery: .delivered(at: 2000),
                    preview: NotificationPreview(subtitle: "Subtitle only")),
                DeviceViewPush(
                    sequence: 3, apnsID: "ID-3", topic: app, pushType: .alert, delivery: .delivered(at: 3000),
                    preview: NotificationPreview(title: "", sound: NotificationPreview.Sound(name: "default"))),
                DeviceViewPush(
                    sequence: 4, apnsID: "ID-4", topic: app, pushType: .alert, delivery: .delivered(at: 4000),
                    preview: nil),
            ],
            shown: [2, 1]),
    ]

    @Test("Notifications shown", arguments: notificationRows)
    func notificationsShown(row: Row) {
        #expect(Self.view(row.pushes).notifications.map(\.sequence) == row.shown)
    }

    @Test("A shown notification carries its fields and counts what it replaced")
    func notificationFields() {
        let view = Self.view([Self.push(1, collapse: "a"), Self.push(2, collapse: "a"), Self.push(3, collapse: "a")])
        #expect(
            view.notifications == [
                DeviceView.Notification(
                    sequence: 3, apnsID: "ID-3", topic: Self.app, collapseID: "a", deliveredAt: 3000,
                    preview: NotificationPreview(title: "n3"), replaced: 2)
            ])
    }

    // MARK: badges

    struct BadgeRow: Sendable, CustomTestStringConvertible {
        var name: String
        var pushes: [DeviceViewPush]
        var badges: [String: Int?]
        var testDescription: String { name }
    }

    static let badgeRows: [BadgeRow] = [
        BadgeRow(name: "no push: no badge", pushes: [], badges: [:]),
        BadgeRow(name: "alerts that set none: null", pushes: [push(1), push(2)], badges: [app: Int?.none]),
        BadgeRow(
            name: "the newest delivered push that set one", pushes: [push(1, badge: 4), push(2, badge: 7), push(3)],
            badges: [app: 7]),
        BadgeRow(name: "a badge-only alert sets it", pushes: [push(1, badge: 2, silent: true)], badges: [app: 2]),
        BadgeRow(name: "0 clears it to 0", pushes: [push(1, badge: 5), push(2, badge: 0)], badges: [app: 0]),
        BadgeRow(
            name: "a stored or discarded push's badge is not shown",
            pushes: [
                push(1, badge: 1), push(2, delivery: .stored(at: 2000, until: 99_000), badge: 8),
                push(3, delivery: .discarded(.expired, at: 3000), badge: 9),
            ],
            badges: [app: 1]),
        BadgeRow(
            name: "per topic",
            pushes: [push(1, badge: 1), push(2, topic: "com.example.other", badge: 2), push(3, topic: "com.x")],
            badges: [app: 1, "com.example.other": 2, "com.x": Int?.none]),
        BadgeRow(
            name: "newest by delivery time",
            pushes: [
                push(1, delivery: .delivered(at: 9000), badge: 1), push(2, delivery: .delivered(at: 5000), badge: 2),
            ],
            badges: [app: 1]),
        BadgeRow(
            name: "a background push's badge counts", pushes: [push(1, type: .background, badge: 6)], badges: [app: 6]),
    ]

    @Test("Badges", arguments: badgeRows)
    func badges(row: BadgeRow) {
        let badges = Self.view(row.pushes).badges
        #expect(Dictionary(uniqueKeysWithValues: badges.map { ($0.topic, $0.badge) }) == row.badges)
        #expect(badges.map(\.topic) == badges.map(\.topic).sorted())
    }

    // MARK: Live Activities

    static func activity(
        _ sequence: UInt64, _ event: String, state: JSONValue? = nil, stale: Int? = nil, dismissal: Int? = nil,
        channel: String? = nil, delivery: DeviceDelivery? = nil, rejected: Bool = false
    ) -> DeviceViewPush {
        var members: [(key: String, value: JSONValue)] = [("event", .string(event)), ("timestamp", .integer(1))]
        if let state { members.append(("content-state", state)) }
        if let stale { members.append(("stale-date", .integer(Int64(stale)))) }
        if let dismissal { members.append(("dismissal-date", .integer(Int64(dismissal)))) }
        return push(
            sequence, type: .liveactivity, topic: activityTopic, delivery: delivery, rejected: rejected,
            channel: channel, aps: .object(members))
    }

    static func score(_ value: Int) -> JSONValue { .object([("score", .integer(Int64(value)))]) }

    @Test("Start then update: the update's content state, stale date and push")
    func startThenUpdate() throws {
        let view = Self.view([
            Self.activity(1, "start", state: Self.score(0), stale: 50),
            Self.activity(2, "update", state: Self.score(1), stale: 60),
        ])
        let activity = try #require(view.liveActivities.first)
        #expect(view.liveActivities.count == 1)
        #expect(activity.event == "update")
        #expect(activity.contentState == Self.score(1))
        #expect(activity.staleDate == 60_000)
        #expect(activity.sequence == 2 && activity.apnsID == "ID-2" && activity.updatedAt == 2000)
        #expect(activity.pushes == 2)
        #expect(!activity.ended && activity.dismissalDate == nil)
        #expect(activity.topic == Self.activityTopic && activity.channelID == nil)
    }

    @Test("An update without content-state keeps the last one; without stale-date has none")
    func updateWithoutState() throws {
        let view = Self.view([Self.activity(1, "start", state: Self.score(4), stale: 50), Self.activity(2, "update")])
        let activity = try #require(view.liveActivities.first)
        #expect(activity.contentState == Self.score(4))
        #expect(activity.staleDate == nil)
    }

    @Test("End: ended, its final content, its dismissal date; later updates change nothing")
    func end() throws {
        let view = Self.view([
            Self.activity(1, "start", state: Self.score(0)),
            Self.activity(2, "end", state: Self.score(9), dismissal: 100),
            Self.activity(3, "update", state: Self.score(10)),
        ])
        let activity = try #require(view.liveActivities.first)
        #expect(activity.ended && activity.endedAt == 2000)
        #expect(activity.event == "end")
        #expect(activity.contentState == Self.score(9))
        #expect(activity.dismissalDate == 100_000)
        #expect(activity.sequence == 2)
    }

    @Test(
        "An end without dismissal-date is dismissed four hours later",
        arguments: [(Int64(0), false), (Int64(4 * 3_600_000), true)])
    func defaultDismissal(after: Int64, dismissed: Bool) throws {
        let pushes = [Self.activity(1, "start"), Self.activity(2, "end")]
        let activity = try #require(Self.view(pushes).liveActivities.first)
        let fourHoursAfterTheEnd: Int64 = 2000 + 4 * 3_600_000
        #expect(activity.dismissalDate == fourHoursAfterTheEnd)
        #expect(activity.isDismissed(at: 2000 + after - (dismissed ? 0 : 1)) == dismissed)
    }

    @Test("Stale from its stale date until it ends")
    func stale() throws {
        let running = try #require(Self.view([Self.activity(1, "start", stale: 10)]).liveActivities.first)
        #expect(!running.isStale(at: 9_999))
        #expect(running.isStale(at: 10_000))
        let ended = try #require(
            Self.view([Self.activity(1, "start", stale: 10), Self.activity(2, "end")]).liveActivities.first)
        #expect(!ended.isStale(at: 20_000))
    }

    @Test("A new start after an end begins a new activity")
    func restart() throws {
        let view = Self.view([
            Self.activity(1, "start", state: Self.score(0)), Self.activity(2, "end", dismissal: 5),
            Self.activity(3, "start", state: Self.score(1)),
        ])
        let activity = try #require(view.liveActivities.first)
        #expect(view.liveActivities.count == 1)
        #expect(!activity.ended && activity.dismissalDate == nil && activity.pushes == 1)
        #expect(activity.contentState == Self.score(1))
    }

    @Test("An update with no start seen is shown from that update")
    func updateFirst() throws {
        let activity = try #require(Self.view([Self.activity(1, "update", state: Self.score(3))]).liveActivities.first)
        #expect(activity.event == "update" && activity.contentState == Self.score(3) && activity.pushes == 1)
    }

    @Test("Broadcast deliveries are keyed by channel, direct pushes by topic; newest first")
    func keys() {
        let view = Self.view([
            Self.activity(1, "start", state: Self.score(1)),
            Self.activity(2, "update", state: Self.score(2), channel: "chan-A"),
            Self.activity(3, "update", state: Self.score(3), channel: "chan-B"),
            Self.activity(4, "update", state: Self.score(4), channel: "chan-A"),
        ])
        #expect(view.liveActivities.map(\.channelID) == ["chan-A", "chan-B", nil])
        #expect(view.liveActivities.map(\.contentState) == [Self.score(4), Self.score(3), Self.score(1)])
    }

    @Test("Stored, discarded and rejected Live Activity pushes change nothing; nor does an unknown event")
    func onlyDelivered() throws {
        let view = Self.view([
            Self.activity(1, "start", state: Self.score(1)),
            Self.activity(2, "update", state: Self.score(2), delivery: .stored(at: 2000, until: 9000)),
            Self.activity(3, "update", state: Self.score(3), delivery: .discarded(.expired, at: 3000)),
            Self.activity(4, "end", rejected: true),
            Self.activity(5, "pause", state: Self.score(5)),
        ])
        let activity = try #require(view.liveActivities.first)
        #expect(activity.contentState == Self.score(1) && activity.sequence == 1 && !activity.ended)
    }

    // MARK: stored

    @Test("Stored: what APNs holds, in its order, with the records' ids and the time it was stored")
    func stored() {
        let first = DeliverablePush(sequence: 7, slot: Self.app, pushType: .alert, acceptedAt: 500, expiresAt: 9_000)
        let second = DeliverablePush(
            sequence: 8, slot: "chan", pushType: .liveactivity, acceptedAt: 600, expiresAt: 8_000)
        let gone = DeliverablePush(sequence: 9, slot: "com.x", pushType: .alert, acceptedAt: 700, expiresAt: 7_000)
        let record = Self.push(7, delivery: .stored(at: 550, until: 9_000))
        let held: [(held: DeliveryInbox.Held, push: DeviceViewPush?)] = [
            (DeliveryInbox.Held(push: first, cause: .offline), record),
            (
                DeliveryInbox.Held(push: second, cause: .lowPower),
                Self.activity(8, "update", channel: "chan", delivery: .stored(at: 650, until: 8_000))
            ),
            (DeliveryInbox.Held(push: gone, cause: .backgroundBudget), nil),
        ]
        let view = DeviceView(token: "abab", pushes: [record], held: held, now: 1000)
        #expect(
            view.stored == [
                DeviceView.Stored(
                    sequence: 7, apnsID: "ID-7", topic: Self.app, channelID: nil, cause: .offline, storedAt: 550,
                    until: 9_000, preview: NotificationPreview(title: "n7")),
                DeviceView.Stored(
                    sequence: 8, apnsID: "ID-8", topic: Self.activityTopic, channelID: "chan", cause: .lowPower,
                    storedAt: 650, until: 8_000, preview: NotificationPreview(title: "n8")),
                DeviceView.Stored(
                    sequence: 9, apnsID: nil, topic: "com.x", channelID: nil, cause: .backgroundBudget, storedAt: 700,
                    until: 7_000, preview: nil),
            ])
        #expect(view.notifications.isEmpty)
    }

    // MARK: JSON

    @Test("The JSON: conditions at now, a limit on notifications, badges as an object")
    func json() {
        let conditions = DeviceConditions(
            presence: .offline, notificationsEnabled: false,
            periods: [DeviceConditions.Period(presence: .lowPower, from: 0, until: 2000)])
        let view = DeviceView(
            token: "abab", conditions: conditions, pushes: [Self.push(1), Self.push(2, badge: 3)], now: 1000)
        let text = String(decoding: view.json(notificationLimit: 1), as: UTF8.self)
        #expect(
            text
                == #"{"token":"abab","now":1000,"conditions":{"presence":"lowPower","notifications":"disabled","installed":true,"backgroundPushesPerHour":null},"notifications":[{"sequence":2,"apnsId":"ID-2","topic":"com.example.app","collapseId":null,"deliveredAt":2000,"replaced":0,"preview":{"title":"n2","badge":3,"silent":false}}],"notificationCount":2,"badges":{"com.example.app":3},"liveActivities":[],"stored":[]}"#
        )
    }

    @Test("A Live Activity's JSON")
    func activityJSON() {
        let view = Self.view(
            [Self.activity(1, "start", state: Self.score(2), stale: 1), Self.activity(2, "end", dismissal: 900)],
            now: 3000)
        let text = String(decoding: view.json(), as: UTF8.self)
        #expect(
            text.contains(
                #""liveActivities":[{"topic":"com.example.app.push-type.liveactivity","channelId":null,"event":"end","contentState":{"score":2},"staleDate":1000,"dismissalDate":900000,"ended":true,"endedAt":2000,"stale":false,"dismissed":false,"updatedAt":2000,"sequence":2,"apnsId":"ID-2","pushes":2}]"#
            ))
    }
}
