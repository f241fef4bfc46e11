import APNSMockCore
import DequeModule
import HashTreeCollections
import NIOConcurrencyHelpers
import Synchronization

/// What reaches the device after the 200: the store keeps each device's `DeliveryInbox` (for
/// the devices whose conditions differ from the standard, and while they hold something) and
/// writes what `DeliveryModel` decides into the records' delivery history, under the same lock
/// as the records, so that a reader never sees a push stored in an inbox and delivered in its
/// record. Followers see each change as they see a completed answer.
extension DeliveryStore {
    /// A push the model may judge, and the device it is for.
    struct Judgeable {
        var token: String
        var push: DeliverablePush
    }

    /// The model's view of `record`: an accepted push to a device (a request's, or a
    /// broadcast's delivery, whose slot is its channel), or an accepted web push to its
    /// subscription's browser; `nil` for anything else.
    static func deliverable(_ record: DeliveryRecord, storagePolicy: MessageStoragePolicy? = nil) -> Judgeable? {
        if record.kind == .webPush { return webPushDeliverable(record) }
        guard record.kind == .push, let response = record.response, response.status == 200 else { return nil }
        let slot = record.viaChannel ? record.channelID ?? "" : record.topic ?? ""
        // The three headers the model reads, found in one pass over the block (the first of each).
        var priority: String?
        var expiration: String?
        var collapseID: String?
        let headers = record.headerBlock
        for field in headers {
            switch field.knownName {
            case .apnsPriority where priority == nil: priority = headers.string(field.valueRange)
            case .apnsExpiration where expiration == nil: expiration = headers.string(field.valueRange)
            case .apnsCollapseID where collapseID == nil: collapseID = headers.string(field.valueRange)
            default: continue
            }
        }
        let push = DeliverablePush(
            sequence: record.sequence, slot: slot, pushType: record.pushType ?? .alert,
            acceptedAt: response.respondedAt > 0 ? response.respondedAt : record.receivedAt,
            priority: priority, expiration: expiration, collapseID: collapseID,
            storagePolicy: record.viaChannel ? storagePolicy : nil
        )
        return Judgeable(token: record.token ?? "", push: push)
    }

    /// An accepted web push (201) as the model sees it, for its subscription's inbox.
    private static func webPushDeliverable(_ record: DeliveryRecord) -> Judgeable? {
        guard let response = record.response, response.status == WebPushRequestRules.successStatus,
            let subscriptionID = record.token
        else { return nil }
        let push = DeliverablePush(
            webPushSequence: record.sequence,
            acceptedAt: response.respondedAt > 0 ? response.respondedAt : record.receivedAt, ttl: record.header("ttl"),
            urgency: record.header("urgency"), topic: record.header("topic"))
        return Judgeable(token: WebPushSubscription.deliveryKey(subscriptionID), push: push)
    }

    /// Judges `judgeable` if its device has an inbox (under the lock).
    func judge(_ judgeable: Judgeable, in state: inout State) {
        guard !judgeable.token.isEmpty else { return }
        // Judged in place: one hash of the token, and what the inbox holds is not copied.
        let judged = state.inboxes.updateValue(forKey: judgeable.token) { inbox -> ([DeliveryChange], Int64?)? in
            guard inbox != nil else { return nil }
            let changes = DeliveryModel.accept(judgeable.push, into: &inbox!)
            return (changes, DeliveryModel.nextEvent(in: inbox!, after: inbox!.judgedAt))
        }
        guard let (changes, next) = judged else { return }
        state.schedule.schedule(judgeable.token, at: next)
        apply(changes, in: &state)
    }

    /// Puts `token`'s inbox in the schedule at its next event (none: out of it).
    static func reschedule(_ token: String, _ inbox: DeliveryInbox?, in state: inout State) {
        state.schedule.schedule(token, at: inbox.flatMap { DeliveryModel.nextEvent(in: $0, after: $0.judgedAt) })
    }

    /// Writes `changes` into the records' histories (records no longer stored are skipped),
    /// and queues the changed records for the journal when there is one.
    func apply(_ changes: [DeliveryChange], in state: inout State) {
        guard !changes.isEmpty else { return }
        for change in changes {
            guard let index = state.index(sequence: change.sequence) else { continue }
            state.judged[change.sequence, default: []].append(change.delivery)
            if change.delivery.state == .stored {
                state.unsettled.insert(change.sequence)
            } else if !DeliveryOutcome(code: state.records[index].outcome).isOpen {
                state.unsettled.remove(change.sequence)
            }
            if sink != nil { state.journalQueue.append(Self.decode(state.records[index], state)) }
        }
        state.completions &+= 1
    }

    /// Hands the records whose delivery changed to the sink (outside the lock), so that a
    /// journal restored later has each record's latest delivery (`--restore` keeps the last
    /// line of a sequence number). What devices hold is not journaled: a restarted mock has no
    /// held pushes, and their records keep the state they last had.
    func flushJournal() {
        guard let sink else { return }
        let queue = state.withLockedValue { state -> [DeliveryRecord] in
            defer { state.journalQueue.removeAll() }
            return state.journalQueue
        }
        for record in queue { sink.recordDecided(record) }
    }

    /// Gives device `token` new conditions at `now` (epoch ms, the mock clock): what it holds
    /// is judged again, and the records of what it delivers or discards say so. A device with
    /// standard conditions and nothing held has no inbox.
    public func setDeviceConditions(_ conditions: DeviceConditions, of token: String, now: Int64) {
        setDeliveryConditions(conditions, inbox: token.lowercased(), now: now)
    }

    /// Gives the inbox `key` new conditions at `now`: a device's token in lower case, or a Web
    /// Push subscription's `WebPushSubscription.deliveryKey` (its id is case-sensitive).
    public func setDeliveryConditions(_ conditions: DeviceConditions, inbox token: String, now: Int64) {
        let changed = state.withLockedValue { state -> Bool in
            var inbox = state.inboxes[token] ?? DeliveryInbox(conditions: .standard, judgedAt: now)
            let changes = DeliveryModel.change(conditions, at: now, in: &inbox)
            apply(changes, in: &state)
            let had = state.inboxes[token] != nil
            if inbox.isIdle {
                state.inboxes[token] = nil
                if had { inboxCount.subtract(1, ordering: .relaxed) }
                Self.reschedule(token, nil, in: &state)
            } else {
                state.inboxes[token] = inbox
                if !had { inboxCount.add(1, ordering: .relaxed) }
                Self.reschedule(token, inbox, in: &state)
            }
            return !changes.isEmpty
        }
        if changed {
            notifier.signalCompletion()
            flushJournal()
        }
    }

    /// Forgets every device's conditions and what they hold (held pushes stay as their records
    /// say: stored). The registry's reset calls `setDeviceConditions` for the setup's devices.
    public func removeAllInboxes() {
        state.withLockedValue { state in
            inboxCount.subtract(state.inboxes.count, ordering: .relaxed)
            state.inboxes = [:]
            state.schedule.removeAll()
        }
    }

    /// Lets time pass to `now` (epoch ms, the mock clock) for the devices whose next event
    /// (a scheduled presence, an expiration, a background budget) it reaches: only those are
    /// judged, from the schedule, so the cost follows the events, not the number of devices.
    /// Returns how many records changed.
    @discardableResult
    public func advanceDeliveries(to now: Int64) -> Int {
        guard inboxCount.load(ordering: .relaxed) > 0 else { return 0 }
        let count = state.withLockedValue { state -> Int in
            var count = 0
            for token in state.schedule.takeDue(upTo: now) {
                guard var inbox = state.inboxes[token] else { continue }
                let changes = DeliveryModel.advance(&inbox, to: now)
                state.inboxes[token] = inbox
                Self.reschedule(token, inbox, in: &state)
                apply(changes, in: &state)
                count += changes.count
            }
            return count
        }
        if count > 0 {
            notifier.signalCompletion()
            flushJournal()
        }
        return count
    }

    /// The next time (epoch ms) at which something a device holds may change, if any: when a
    /// timer should call `advanceDeliveries`. The schedule's head: no walk over the devices.
    public var nextDeliveryEvent: Int64? {
        guard inboxCount.load(ordering: .relaxed) > 0 else { return nil }
        return state.withLockedValue { $0.schedule.next() }
    }

    /// What APNs holds for device `token` (oldest first), with the records they came from
    /// where still stored.
    public func heldPushes(of token: String) -> [(held: DeliveryInbox.Held, record: DeliveryRecord?)] {
        state.withLockedValue { state in
            guard let inbox = state.inboxes[token.lowercased()] else { return [] }
            return inbox.held.map { held in
                (held, state.index(sequence: held.push.sequence).map { Self.decode(state.records[$0], state) })
            }
        }
    }

    /// The conditions the store last judged device `token` under (`standard` when it has no
    /// inbox).
    public func deviceConditions(of token: String) -> DeviceConditions {
        state.withLockedValue { $0.inboxes[token.lowercased()]?.conditions ?? .standard }
    }
}
