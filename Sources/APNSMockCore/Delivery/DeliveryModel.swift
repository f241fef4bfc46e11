/// What reaches a device after APNs answers 200: pure rules over one device's `DeliveryInbox`,
/// with time passed in (the mock clock), returning the records' new `delivery` states.
///
/// Apple's pages and the choices this model makes where they leave one (docs/EMULATION.md,
/// "After the 200"):
/// - *Sending notification requests to APNs*: an offline device's pushes are stored, one per
///   app, the newest ("most of the time the last"); each lives until its `apns-expiration`
///   (30 days when absent); an expiration of 0 is delivered at once or discarded. The model
///   keeps one per topic (an app's `.voip` topic is a slot of its own), whatever held the
///   older one: a device that goes offline keeps the newest push of each topic it held.
/// - The `apns-priority` row: priority 5 and 1 are sent "based on power considerations". A
///   device in `lowPower` holds them (all of them, a newer one with the same `apns-collapse-id`
///   replacing an older) until it leaves that state; priority 10 is delivered, and replaces a
///   held push with its `apns-collapse-id` (which would otherwise arrive later and show the
///   older content).
/// - *Pushing background updates to your App*: the system throttles background pushes ("two
///   or three per hour"). With `backgroundPushesPerHour` set, the pushes beyond it are held,
///   the newest per topic, until the hour lets one more through. Every background push counts,
///   also one released when the device comes online or leaves `lowPower`; a push the budget
///   holds stays held while the device is offline or holds its priority in `lowPower`.
/// - *Viewing the status of push notifications*: discarded because the token is no longer
///   active (`installed: false`), notifications are disabled (alert pushes only: background and
///   other push types still reach the app), or it expired.
/// - Broadcasts (*Sending broadcast push notification requests to APNs*): a channel with
///   storage policy 1 keeps its newest message for an offline subscriber, at most 8 hours;
///   policy 0 keeps nothing (discarded `expired`, as an expiration of 0).
public enum DeliveryModel {
    /// The window a background budget counts over: one hour.
    public static let backgroundWindow: Int64 = 3_600_000

    /// Judges `push`, accepted at `push.acceptedAt`: the inbox first catches up to that time,
    /// then the push is delivered, held or discarded. Returns every change, in time order.
    public static func accept(_ push: DeliverablePush, into inbox: inout DeliveryInbox) -> [DeliveryChange] {
        var changes = advance(&inbox, to: push.acceptedAt)
        let now = max(push.acceptedAt, inbox.judgedAt)
        let conditions = inbox.conditions
        if !conditions.installed {
            changes.append(DeliveryChange(sequence: push.sequence, delivery: .discarded(.tokenInactive, at: now)))
        } else if !conditions.notificationsEnabled && push.isUserVisible {
            changes.append(
                DeliveryChange(sequence: push.sequence, delivery: .discarded(.notificationsDisabled, at: now)))
        } else {
            switch conditions.presence(at: now) {
            case .offline:
                hold(push, .offline, at: now, in: &inbox, &changes)
            case .lowPower where push.priority < 10:
                hold(push, .lowPower, at: now, in: &inbox, &changes)
            case .online, .lowPower:
                if push.isBackground, budgetSpent(for: push.slot, at: now, in: inbox) {
                    hold(push, .backgroundBudget, at: now, in: &inbox, &changes)
                } else {
                    // Shown as one: an older push with its collapse id, still held, would
                    // otherwise reach the device after it and show what it replaced.
                    if let collapseID = push.collapseID {
                        inbox.held.removeAll { held in
                            guard held.push.slot == push.slot, held.push.collapseID == collapseID else { return false }
                            changes.append(
                                DeliveryChange(sequence: held.push.sequence, delivery: .discarded(.replaced, at: now)))
                            return true
                        }
                    }
                    deliver(push, at: now, in: &inbox, &changes)
                }
            }
        }
        return changes
    }

    /// Gives the device new conditions at `now`: what it holds is first judged up to `now`
    /// under the old ones, then again under the new ones.
    public static func change(
        _ conditions: DeviceConditions, at now: Int64, in inbox: inout DeliveryInbox
    ) -> [DeliveryChange] {
        var changes = advance(&inbox, to: now)
        inbox.conditions = conditions
        settle(&inbox, at: max(now, inbox.judgedAt), &changes)
        return changes
    }

    /// Lets time pass up to `now`: scheduled presence changes, expirations and background
    /// budgets take effect at their own times, in order. Time never goes back: a `now` before
    /// the last judged time changes nothing.
    public static func advance(_ inbox: inout DeliveryInbox, to now: Int64) -> [DeliveryChange] {
        guard now > inbox.judgedAt else { return [] }
        var changes: [DeliveryChange] = []
        var time = inbox.judgedAt
        while time < now {
            let next = nextEvent(in: inbox, after: time).map { min($0, now) } ?? now
            settle(&inbox, at: next, &changes)
            time = next
        }
        inbox.judgedAt = now
        return changes
    }

    /// The next time after `time` at which something held may change: the scheduled presence
    /// changes, a held push expires, or a background budget frees a place.
    public static func nextEvent(in inbox: DeliveryInbox, after time: Int64) -> Int64? {
        var next = inbox.conditions.nextChange(after: time)
        func consider(_ candidate: Int64) {
            if candidate > time, candidate < next ?? Int64.max { next = candidate }
        }
        for held in inbox.held {
            consider(held.push.expiresAt)
            if held.cause == .backgroundBudget, let reopens = budgetReopens(for: held.push.slot, in: inbox) {
                consider(reopens)
            }
        }
        return next
    }

    // MARK: steps

    /// Judges everything held at `time` under the inbox's conditions.
    private static func settle(_ inbox: inout DeliveryInbox, at time: Int64, _ changes: inout [DeliveryChange]) {
        inbox.backgroundDeliveries.removeAll { $0.at <= time - backgroundWindow }
        guard !inbox.held.isEmpty else { return }
        let conditions = inbox.conditions
        let presence = conditions.presence(at: time)
        let held = inbox.held
        inbox.held = []
        for var item in held {
            let push = item.push
            if push.expiresAt <= time {
                changes.append(
                    DeliveryChange(sequence: push.sequence, delivery: .discarded(.expired, at: push.expiresAt)))
                continue
            }
            if !conditions.installed {
                changes.append(DeliveryChange(sequence: push.sequence, delivery: .discarded(.tokenInactive, at: time)))
                continue
            }
            if !conditions.notificationsEnabled && push.isUserVisible {
                changes.append(
                    DeliveryChange(sequence: push.sequence, delivery: .discarded(.notificationsDisabled, at: time)))
                continue
            }
            if presence == .offline {
                // APNs stores one notification per app for an offline device: the newest
                // (items are oldest first, so what is kept for its slot so far is older).
                keep(item, as: .offline, at: time, in: &inbox, &changes)
            } else if presence == .lowPower && push.priority < 10 {
                item.cause = .lowPower
                inbox.held.append(item)
            } else if push.isBackground && budgetSpent(for: push.slot, at: time, in: inbox) {
                // Whatever held it before, a background push released now still counts
                // against the hour's budget.
                keep(item, as: .backgroundBudget, at: time, in: &inbox, &changes)
            } else {
                deliver(push, at: time, in: &inbox, &changes)
            }
        }
    }

    /// Keeps `item` held for `cause`, the newest of its slot: older items held for the same
    /// cause in its slot (any item, when the device is offline) are discarded `replaced`.
    private static func keep(
        _ item: DeliveryInbox.Held, as cause: DeliveryInbox.Held.Cause, at time: Int64,
        in inbox: inout DeliveryInbox, _ changes: inout [DeliveryChange]
    ) {
        inbox.held.removeAll { held in
            guard held.push.slot == item.push.slot, cause == .offline || held.cause == cause else { return false }
            changes.append(DeliveryChange(sequence: held.push.sequence, delivery: .discarded(.replaced, at: time)))
            return true
        }
        inbox.held.append(DeliveryInbox.Held(push: item.push, cause: cause))
    }

    private static func hold(
        _ push: DeliverablePush, _ cause: DeliveryInbox.Held.Cause, at now: Int64, in inbox: inout DeliveryInbox,
        _ changes: inout [DeliveryChange]
    ) {
        guard !push.deliverNowOrNever, push.expiresAt > now else {
            changes.append(DeliveryChange(sequence: push.sequence, delivery: .discarded(.expired, at: now)))
            return
        }
        inbox.held.removeAll { held in
            guard held.push.slot == push.slot else { return false }
            // Offline: one push per slot, whatever held the older one (lowPower, the budget).
            let sameSlot = cause == .offline || (cause == .backgroundBudget && held.cause == cause)
            let sameCollapse = push.collapseID != nil && held.push.collapseID == push.collapseID
            guard sameSlot || sameCollapse else { return false }
            changes.append(DeliveryChange(sequence: held.push.sequence, delivery: .discarded(.replaced, at: now)))
            return true
        }
        inbox.held.append(DeliveryInbox.Held(push: push, cause: cause))
        changes.append(DeliveryChange(sequence: push.sequence, delivery: .stored(at: now, until: push.expiresAt)))
    }

    private static func deliver(
        _ push: DeliverablePush, at time: Int64, in inbox: inout DeliveryInbox, _ changes: inout [DeliveryChange]
    ) {
        if push.isBackground && inbox.conditions.backgroundPushesPerHour != nil {
            inbox.backgroundDeliveries.append(DeliveryInbox.BackgroundDelivery(slot: push.slot, at: time))
        }
        changes.append(DeliveryChange(sequence: push.sequence, delivery: .delivered(at: time)))
    }

    private static func budgetSpent(for slot: String, at time: Int64, in inbox: DeliveryInbox) -> Bool {
        guard let limit = inbox.conditions.backgroundPushesPerHour else { return false }
        var count = 0
        for delivery in inbox.backgroundDeliveries where delivery.slot == slot && delivery.at > time - backgroundWindow
        {
            count += 1
        }
        return count >= limit
    }

    /// When the oldest background delivery of `slot` in the window leaves it.
    private static func budgetReopens(for slot: String, in inbox: DeliveryInbox) -> Int64? {
        inbox.backgroundDeliveries.first { $0.slot == slot }.map { $0.at + backgroundWindow }
    }
}
