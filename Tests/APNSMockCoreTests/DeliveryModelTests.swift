import APNSMockCore
import Testing

/// One row of the delivery model's table: a device's conditions, what happens to it (pushes
/// accepted, conditions changed, time passing), and every change the model must report, in
/// order. Apple's pages behind each rule are named in `DeliveryModel`'s doc comment.
struct DeliveryScenario: Sendable, CustomTestStringConvertible {
    /// Something that happens to the device's inbox.
    enum Step: Sendable {
        case accept(DeliverablePush)
        case change(DeviceConditions, at: Int64)
        case advance(to: Int64)
    }

    let name: String
    let conditions: DeviceConditions
    let steps: [Step]
    let expected: [DeliveryChange]

    var testDescription: String { name }

    /// Runs the steps on an inbox judged at `t0` and returns every change.
    func run() -> (changes: [DeliveryChange], inbox: DeliveryInbox) {
        var inbox = DeliveryInbox(conditions: conditions, judgedAt: DeliveryModelTests.t0)
        var changes: [DeliveryChange] = []
        for step in steps {
            switch step {
            case .accept(let push): changes += DeliveryModel.accept(push, into: &inbox)
            case .change(let conditions, let at): changes += DeliveryModel.change(conditions, at: at, in: &inbox)
            case .advance(let to): changes += DeliveryModel.advance(&inbox, to: to)
            }
        }
        return (changes, inbox)
    }
}

@Suite("DeliveryModel: what reaches the device after the 200, one rule per row")
struct DeliveryModelTests {
    static let t0: Int64 = 1_700_000_000_000
    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000

    /// A push accepted `offset` ms after `t0`, as its headers describe it.
    static func push(
        _ sequence: UInt64, at offset: Int64, topic: String = "com.example.app", type: APNSPushType = .alert,
        priority: String? = nil, expiration: String? = nil, collapseID: String? = nil,
        storagePolicy: MessageStoragePolicy? = nil
    ) -> DeliverablePush {
        DeliverablePush(
            sequence: sequence, slot: topic, pushType: type, acceptedAt: t0 + offset, priority: priority,
            expiration: expiration, collapseID: collapseID, storagePolicy: storagePolicy)
    }

    /// `apns-expiration` (epoch seconds) `offset` ms after `t0`.
    static func expiration(_ offset: Int64) -> String { String((t0 + offset) / 1000) }

    static func delivered(_ sequence: UInt64, _ offset: Int64) -> DeliveryChange {
        DeliveryChange(sequence: sequence, delivery: .delivered(at: t0 + offset))
    }
    static func stored(_ sequence: UInt64, _ offset: Int64, until: Int64) -> DeliveryChange {
        DeliveryChange(sequence: sequence, delivery: .stored(at: t0 + offset, until: t0 + until))
    }
    static func discarded(_ sequence: UInt64, _ reason: DeviceDelivery.Reason, _ offset: Int64) -> DeliveryChange {
        DeliveryChange(sequence: sequence, delivery: .discarded(reason, at: t0 + offset))
    }

    static let offline = DeviceConditions(presence: .offline)
    static let lowPower = DeviceConditions(presence: .lowPower)
    static let thirtyDays = DeliverablePush.defaultLifetime

    static let rows: [DeliveryScenario] = [
        DeliveryScenario(
            name: "online: delivered at once", conditions: .standard, steps: [.accept(push(1, at: 10))],
            expected: [delivered(1, 10)]),
        DeliveryScenario(
            name: "offline: stored until its apns-expiration", conditions: offline,
            steps: [.accept(push(1, at: 10, expiration: expiration(hour)))],
            expected: [stored(1, 10, until: hour)]),
        DeliveryScenario(
            name: "offline without apns-expiration: stored 30 days", conditions: offline,
            steps: [.accept(push(1, at: 10))], expected: [stored(1, 10, until: 10 + thirtyDays)]),
        DeliveryScenario(
            name: "offline with apns-expiration 0: discarded expired at once", conditions: offline,
            steps: [.accept(push(1, at: 10, expiration: "0"))], expected: [discarded(1, .expired, 10)]),
        DeliveryScenario(
            name: "online with apns-expiration 0: delivered", conditions: .standard,
            steps: [.accept(push(1, at: 10, expiration: "0"))], expected: [delivered(1, 10)]),
        DeliveryScenario(
            name: "offline: a second push for the same topic replaces the first", conditions: offline,
            steps: [.accept(push(1, at: 10)), .accept(push(2, at: 20))],
            expected: [
                stored(1, 10, until: 10 + thirtyDays), discarded(1, .replaced, 20),
                stored(2, 20, until: 20 + thirtyDays),
            ]),
        DeliveryScenario(
            name: "offline: another topic keeps its own slot", conditions: offline,
            steps: [.accept(push(1, at: 10)), .accept(push(2, at: 20, topic: "com.example.app.voip", type: .voip))],
            expected: [stored(1, 10, until: 10 + thirtyDays), stored(2, 20, until: 20 + thirtyDays)]),
        DeliveryScenario(
            name: "coming online (change): the stored push is delivered at that time", conditions: offline,
            steps: [.accept(push(1, at: 10)), .change(.standard, at: t0 + 5 * minute)],
            expected: [stored(1, 10, until: 10 + thirtyDays), delivered(1, 5 * minute)]),
        DeliveryScenario(
            name: "coming online (a scheduled period ends): delivered at the period's end",
            conditions: DeviceConditions(periods: [.init(presence: .offline, from: t0, until: t0 + minute)]),
            steps: [.accept(push(1, at: 10)), .advance(to: t0 + hour)],
            expected: [stored(1, 10, until: 10 + thirtyDays), delivered(1, minute)]),
        DeliveryScenario(
            name: "a stored push whose expiration passes while offline: discarded expired at its expiration",
            conditions: offline,
            steps: [.accept(push(1, at: 10, expiration: expiration(5 * minute))), .advance(to: t0 + hour)],
            expected: [stored(1, 10, until: 5 * minute), discarded(1, .expired, 5 * minute)]),
        DeliveryScenario(
            name: "expiration passes at the instant the device comes online: discarded, not delivered",
            conditions: offline,
            steps: [
                .accept(push(1, at: 10, expiration: expiration(5 * minute))),
                .change(.standard, at: t0 + 5 * minute),
            ],
            expected: [stored(1, 10, until: 5 * minute), discarded(1, .expired, 5 * minute)]),
        DeliveryScenario(
            name: "lowPower: priority 5 and 1 held, 10 delivered; all out when it leaves lowPower",
            conditions: lowPower,
            steps: [
                .accept(push(1, at: 10, priority: "5")), .accept(push(2, at: 20, priority: "1")),
                .accept(push(3, at: 30, priority: "10")), .change(.standard, at: t0 + minute),
            ],
            expected: [
                stored(1, 10, until: 10 + thirtyDays), stored(2, 20, until: 20 + thirtyDays), delivered(3, 30),
                delivered(1, minute), delivered(2, minute),
            ]),
        DeliveryScenario(
            name: "lowPower: a held push is replaced by a newer one with its collapse id, not by another",
            conditions: lowPower,
            steps: [
                .accept(push(1, at: 10, priority: "5", collapseID: "score")),
                .accept(push(2, at: 20, priority: "5", collapseID: "news")),
                .accept(push(3, at: 30, priority: "5", collapseID: "score")),
            ],
            expected: [
                stored(1, 10, until: 10 + thirtyDays), stored(2, 20, until: 20 + thirtyDays),
                discarded(1, .replaced, 30), stored(3, 30, until: 30 + thirtyDays),
            ]),
        DeliveryScenario(
            name: "lowPower: a priority-10 push delivered replaces a held push with its collapse id",
            conditions: lowPower,
            steps: [
                .accept(push(1, at: 10, priority: "5", collapseID: "score")),
                .accept(push(2, at: 20, priority: "5", collapseID: "news")),
                .accept(push(3, at: 30, priority: "10", collapseID: "score")),
                .change(.standard, at: t0 + minute),
            ],
            expected: [
                stored(1, 10, until: 10 + thirtyDays), stored(2, 20, until: 20 + thirtyDays),
                discarded(1, .replaced, 30), delivered(3, 30), delivered(2, minute),
            ]),
        DeliveryScenario(
            name: "notifications disabled: alerts discarded, background delivered",
            conditions: DeviceConditions(notificationsEnabled: false),
            steps: [.accept(push(1, at: 10)), .accept(push(2, at: 20, type: .background, priority: "5"))],
            expected: [discarded(1, .notificationsDisabled, 10), delivered(2, 20)]),
        DeliveryScenario(
            name: "notifications disabled while an alert is held: discarded at that time", conditions: offline,
            steps: [
                .accept(push(1, at: 10)), .change(DeviceConditions(notificationsEnabled: false), at: t0 + minute),
            ],
            expected: [stored(1, 10, until: 10 + thirtyDays), discarded(1, .notificationsDisabled, minute)]),
        DeliveryScenario(
            name: "installed false: discarded tokenInactive, even online",
            conditions: DeviceConditions(installed: false, uninstalledAt: t0),
            steps: [.accept(push(1, at: 10)), .accept(push(2, at: 20, type: .background, priority: "5"))],
            expected: [discarded(1, .tokenInactive, 10), discarded(2, .tokenInactive, 20)]),
        DeliveryScenario(
            name: "uninstalled while a push is held: discarded tokenInactive at that time", conditions: offline,
            steps: [
                .accept(push(1, at: 10)),
                .change(DeviceConditions(installed: false, uninstalledAt: t0 + minute), at: t0 + minute),
            ],
            expected: [stored(1, 10, until: 10 + thirtyDays), discarded(1, .tokenInactive, minute)]),
        DeliveryScenario(
            name: "background budget: beyond N per hour held (newest), released when the hour allows",
            conditions: DeviceConditions(backgroundPushesPerHour: 2),
            steps: [
                .accept(push(1, at: 0, type: .background, priority: "5")),
                .accept(push(2, at: minute, type: .background, priority: "5")),
                .accept(push(3, at: 2 * minute, type: .background, priority: "5")),
                .accept(push(4, at: 3 * minute, type: .background, priority: "5")),
                .accept(push(5, at: 4 * minute)),
                .advance(to: t0 + 3 * hour),
            ],
            expected: [
                delivered(1, 0), delivered(2, minute), stored(3, 2 * minute, until: 2 * minute + thirtyDays),
                discarded(3, .replaced, 3 * minute), stored(4, 3 * minute, until: 3 * minute + thirtyDays),
                delivered(5, 4 * minute), delivered(4, hour),
            ]),
        DeliveryScenario(
            name: "background budget: counted per topic",
            conditions: DeviceConditions(backgroundPushesPerHour: 1),
            steps: [
                .accept(push(1, at: 0, type: .background, priority: "5")),
                .accept(push(2, at: 10, topic: "com.example.other", type: .background, priority: "5")),
            ],
            expected: [delivered(1, 0), delivered(2, 10)]),
        DeliveryScenario(
            name: "background budget 0: every background push held until it expires",
            conditions: DeviceConditions(backgroundPushesPerHour: 0),
            steps: [
                .accept(push(1, at: 0, type: .background, priority: "5", expiration: expiration(hour))),
                .advance(to: t0 + 2 * hour),
            ],
            expected: [stored(1, 0, until: hour), discarded(1, .expired, hour)]),
        DeliveryScenario(
            name: "channel storage policy 0, offline: discarded expired", conditions: offline,
            steps: [
                .accept(
                    push(
                        1, at: 10, topic: "channel-a", type: .liveactivity, expiration: "0",
                        storagePolicy: .noMessageStored))
            ],
            expected: [discarded(1, .expired, 10)]),
        DeliveryScenario(
            name: "channel storage policy 1, offline: the newest kept, at most 8 hours", conditions: offline,
            steps: [
                .accept(
                    push(
                        1, at: 10, topic: "channel-a", type: .liveactivity, expiration: expiration(48 * hour),
                        storagePolicy: .mostRecentMessageStored)),
                .accept(
                    push(
                        2, at: 20, topic: "channel-a", type: .liveactivity, expiration: expiration(48 * hour),
                        storagePolicy: .mostRecentMessageStored)),
                .advance(to: t0 + 24 * hour),
            ],
            expected: [
                stored(1, 10, until: 10 + 8 * hour), discarded(1, .replaced, 20), stored(2, 20, until: 20 + 8 * hour),
                discarded(2, .expired, 20 + 8 * hour),
            ]),
        DeliveryScenario(
            name: "time going backwards changes nothing", conditions: offline,
            steps: [
                .accept(push(1, at: 10 * minute, expiration: expiration(20 * minute))), .advance(to: t0 + minute),
                .advance(to: t0 + 10 * minute),
            ],
            expected: [stored(1, 10 * minute, until: 20 * minute)]),
        DeliveryScenario(
            name: "schedule boundaries are processed in order, each at its own time",
            conditions: DeviceConditions(periods: [
                .init(presence: .offline, from: t0, until: t0 + 10 * minute),
                .init(presence: .lowPower, from: t0 + 10 * minute, until: t0 + 20 * minute),
                .init(presence: .offline, from: t0 + 30 * minute, until: t0 + 40 * minute),
            ]),
            steps: [
                .accept(push(1, at: minute, priority: "5")),
                .accept(push(2, at: 2 * minute, topic: "com.example.other")),
                .accept(push(3, at: 31 * minute, topic: "com.example.third")),
                .advance(to: t0 + hour),
            ],
            expected: [
                stored(1, minute, until: minute + thirtyDays), stored(2, 2 * minute, until: 2 * minute + thirtyDays),
                delivered(2, 10 * minute), delivered(1, 20 * minute),
                stored(3, 31 * minute, until: 31 * minute + thirtyDays), delivered(3, 40 * minute),
            ]),
        // Rows added for bugs these tests found (see the commit that fixed DeliveryModel).
        DeliveryScenario(
            name: "offline: one push per topic, whatever held the older one (lowPower, then offline)",
            conditions: lowPower,
            steps: [
                .accept(push(1, at: 10, priority: "5")),
                .change(offline, at: t0 + minute),
                .accept(push(2, at: 2 * minute, priority: "5")),
                .change(.standard, at: t0 + hour),
            ],
            expected: [
                stored(1, 10, until: 10 + thirtyDays), discarded(1, .replaced, 2 * minute),
                stored(2, 2 * minute, until: 2 * minute + thirtyDays), delivered(2, hour),
            ]),
        DeliveryScenario(
            name: "going offline keeps the newest of the pushes held for a topic",
            conditions: lowPower,
            steps: [
                .accept(push(1, at: 10, priority: "5", collapseID: "a")),
                .accept(push(2, at: 20, priority: "5", collapseID: "b")),
                .change(offline, at: t0 + minute),
                .change(.standard, at: t0 + hour),
            ],
            expected: [
                stored(1, 10, until: 10 + thirtyDays), stored(2, 20, until: 20 + thirtyDays),
                discarded(1, .replaced, minute), delivered(2, hour),
            ]),
        DeliveryScenario(
            name: "background pushes released by leaving lowPower still respect the budget",
            conditions: DeviceConditions(presence: .lowPower, backgroundPushesPerHour: 1),
            steps: [
                .accept(push(1, at: 0, type: .background, priority: "5")),
                .accept(push(2, at: 10, type: .background, priority: "5")),
                .change(DeviceConditions(backgroundPushesPerHour: 1), at: t0 + minute),
                .advance(to: t0 + 3 * hour),
            ],
            expected: [
                stored(1, 0, until: thirtyDays), stored(2, 10, until: 10 + thirtyDays), delivered(1, minute),
                delivered(2, minute + hour),
            ]),
        DeliveryScenario(
            name: "a push over the budget is not delivered while lowPower holds priority 5",
            conditions: DeviceConditions(backgroundPushesPerHour: 1),
            steps: [
                .accept(push(1, at: 0, type: .background, priority: "5")),
                .accept(push(2, at: 10, type: .background, priority: "5")),
                .change(DeviceConditions(presence: .lowPower, backgroundPushesPerHour: 1), at: t0 + minute),
                .advance(to: t0 + 2 * hour),
                .change(DeviceConditions(backgroundPushesPerHour: 1), at: t0 + 3 * hour),
            ],
            expected: [delivered(1, 0), stored(2, 10, until: 10 + thirtyDays), delivered(2, 3 * hour)]),
    ]

    @Test(arguments: rows)
    func rule(_ row: DeliveryScenario) {
        let (changes, _) = row.run()
        #expect(changes == row.expected)
    }

    @Test("Nothing is left held once every row's pushes are delivered or discarded")
    func heldMatchesStoredChanges() {
        for row in Self.rows {
            let (changes, inbox) = row.run()
            var last: [UInt64: DeviceDelivery] = [:]
            for change in changes { last[change.sequence] = change.delivery }
            let stillStored = Set(last.filter { $0.value.state == .stored }.keys)
            #expect(Set(inbox.held.map(\.push.sequence)) == stillStored, "\(row.name)")
        }
    }

    @Test("Time going backwards leaves the inbox as it was")
    func timeBackwardsLeavesInbox() {
        var inbox = DeliveryInbox(conditions: Self.offline, judgedAt: Self.t0)
        _ = DeliveryModel.accept(Self.push(1, at: Self.hour), into: &inbox)
        let before = inbox
        #expect(DeliveryModel.advance(&inbox, to: Self.t0).isEmpty)
        #expect(DeliveryModel.advance(&inbox, to: Self.t0 + Self.hour).isEmpty)
        #expect(inbox == before)
    }

    @Test("nextEvent: the nearest of a period boundary, a held push's expiration and a budget reopening")
    func nextEvent() {
        let t0 = Self.t0
        let minute = Self.minute
        var inbox = DeliveryInbox(
            conditions: DeviceConditions(
                periods: [.init(presence: .offline, from: t0 + 10 * minute, until: t0 + 20 * minute)],
                backgroundPushesPerHour: 1),
            judgedAt: t0)
        #expect(DeliveryModel.nextEvent(in: inbox, after: t0) == t0 + 10 * minute)
        #expect(DeliveryModel.nextEvent(in: inbox, after: t0 + 10 * minute) == t0 + 20 * minute)
        #expect(DeliveryModel.nextEvent(in: inbox, after: t0 + 20 * minute) == nil)
        _ = DeliveryModel.accept(Self.push(1, at: 0, type: .background, priority: "5"), into: &inbox)
        _ = DeliveryModel.accept(
            Self.push(2, at: minute, type: .background, priority: "5", expiration: Self.expiration(5 * minute)),
            into: &inbox)
        #expect(DeliveryModel.nextEvent(in: inbox, after: t0 + minute) == t0 + 5 * minute, "expiration first")
        _ = DeliveryModel.accept(Self.push(3, at: 2 * minute, type: .background, priority: "5"), into: &inbox)
        #expect(inbox.held.map(\.push.sequence) == [3])
        #expect(DeliveryModel.nextEvent(in: inbox, after: t0 + 2 * minute) == t0 + 10 * minute, "the period")
        #expect(
            DeliveryModel.nextEvent(in: inbox, after: t0 + 20 * minute) == t0 + Self.hour, "the budget reopens")
    }

    @Test("An inbox with standard conditions and nothing held or counted is idle")
    func idle() {
        var inbox = DeliveryInbox(conditions: .standard, judgedAt: Self.t0)
        #expect(inbox.isIdle)
        inbox.conditions = Self.offline
        #expect(!inbox.isIdle)
        _ = DeliveryModel.accept(Self.push(1, at: 0), into: &inbox)
        _ = DeliveryModel.change(.standard, at: Self.t0 + 1, in: &inbox)
        #expect(inbox.isIdle, "delivered: nothing left")
    }
}
