import APNSMockCore
import DequeModule
import NIOConcurrencyHelpers
import Synchronization

/// What reaches the device after the 200: the store keeps a `DeliveryInbox` for each device
/// that holds or counts something (a push held, a background push counted for the hour), and
/// writes what `DeliveryModel` decides into the records' delivery history, under the same lock
/// as the records, so that a reader never sees a push stored in an inbox and delivered in its
/// record. Followers see each change as they see a completed answer. A device's conditions are
/// read from the store's `DeliveryConditionsSource` (the registry) when a push for it comes and
/// it has no inbox: a device that holds nothing costs the store nothing.
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

    /// Judges `judgeable` (under the lock) in its device's inbox, or, when it has none and its
    /// conditions (from the source) are not the standard ones, in a new inbox kept only if it
    /// then holds or counts something.
    func judge(_ judgeable: Judgeable, in state: inout State) {
        let token = judgeable.token
        guard !token.isEmpty else { return }
        // Judged in place: one hash of the token, and what the inbox holds is not copied.
        if let index = state.inboxes.index(forKey: token) {
            let changes = DeliveryModel.accept(judgeable.push, into: &state.inboxes.values[index])
            let inbox = state.inboxes.values[index]
            if inbox.holdsNothing {
                state.inboxes.remove(at: index)
                inboxCount.subtract(1, ordering: .relaxed)
                Self.reschedule(token, nil, in: &state)
            } else {
                Self.reschedule(token, inbox, in: &state)
            }
            apply(changes, in: &state)
            return
        }
        guard conditions.hasDeliveryConditions, let found = conditions.deliveryConditions(of: token), found.needsModel
        else { return }
        var inbox = DeliveryInbox(conditions: found, judgedAt: judgeable.push.acceptedAt)
        let changes = DeliveryModel.accept(judgeable.push, into: &inbox)
        if !inbox.holdsNothing { keep(inbox, of: token, in: &state) }
        apply(changes, in: &state)
    }

    /// Keeps `inbox` for `token` while it holds or counts something, forgets it otherwise (its
    /// conditions stay in the source), and puts it in the schedule at its next event.
    func keep(_ inbox: DeliveryInbox, of token: String, in state: inout State) {
        if inbox.holdsNothing {
            if state.inboxes.removeValue(forKey: token) != nil { inboxCount.subtract(1, ordering: .relaxed) }
            Self.reschedule(token, nil, in: &state)
        } else {
            if state.inboxes.updateValue(inbox, forKey: token) == nil { inboxCount.add(1, ordering: .relaxed) }
            Self.reschedule(token, inbox, in: &state)
        }
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

    /// Device `token` has new conditions at `now` (epoch ms, the mock clock): what it holds is
    /// judged again, and the records of what it delivers or discards say so. A device that holds
    /// and counts nothing has no inbox.
    public func setDeviceConditions(_ conditions: DeviceConditions, of token: String, now: Int64) {
        setDeliveryConditions(conditions, inbox: token.lowercased(), now: now)
    }

    /// The inbox `key` has new conditions at `now`: a device's token in lower case, or a Web
    /// Push subscription's `WebPushSubscription.deliveryKey` (its id is case-sensitive). The
    /// store's own table keeps them when it was given no source; a source (the registry) has them
    /// already, and tells the store after each change.
    public func setDeliveryConditions(_ conditions: DeviceConditions, inbox token: String, now: Int64) {
        ownConditions?.set(conditions, for: token)
        let changed = state.withLockedValue { state -> Bool in
            guard var inbox = state.inboxes[token] else { return false }
            let changes = DeliveryModel.change(conditions, at: now, in: &inbox)
            apply(changes, in: &state)
            keep(inbox, of: token, in: &state)
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
        ownConditions?.removeAll()
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
                keep(inbox, of: token, in: &state)
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

    /// Device `token`'s conditions, as the source has them (`standard` for an unknown device).
    public func deviceConditions(of token: String) -> DeviceConditions {
        conditions.deliveryConditions(of: token.lowercased()) ?? .standard
    }
}
