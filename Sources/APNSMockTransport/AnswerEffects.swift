import APNSMockCore
import APNSMockRegistry
import APNSMockStore

/// What a success answer does beyond the wire, carried out when the machine asks
/// (`applyEffect`), just before the answer goes out (APNS-REFERENCE §6): a channel request
/// changes the registry's channels (and reports what the answer gets: a new `apns-channel-id`,
/// a configuration, a list); a broadcast reaches the devices subscribed to its channel (one
/// record each, `viaChannel`), and its `end` event ends their subscriptions; a push-to-start
/// whose `aps` names an `input-push-channel` subscribes the device's new Live Activity to that
/// channel (the mock's model of the device). It never changes an answer: it reports
/// (`EffectOutcome`), and the machine finishes the answer.
///
/// The rules decided from a snapshot; this runs against the registry as it is now, so a channel
/// deleted or filled meanwhile is answered as Apple would (`ChannelNotRegistered`,
/// `CannotCreateChannelConfig`).
struct AnswerEffects {
    let registry: Registry

    /// Carries out the effect of a success to `held` (the machine asks only for a request the
    /// rules accepted whose answer is a success): a channel request's operation, a broadcast's
    /// check that its channel is still there, a push-to-start's subscription. Returns what it did.
    func perform(_ held: HeldRequest, now: Int64, random: inout FastRandom) -> EffectOutcome {
        let verdict = held.verdict
        switch verdict.kind {
        case .channel:
            return channelOperation(verdict, environment: held.environment, now: now, random: &random)
        case .broadcast:
            if let id = verdict.channelID, registry.channel(id)?.environment != held.environment {
                // Deleted since the rules looked.
                return EffectOutcome(change: .rejected(.channelNotRegistered))
            }
            return EffectOutcome()
        case .push:
            return EffectOutcome(
                recordChannelID: subscribeStartedActivity(verdict, request: held.request, environment: held.environment)
            )
        case .webPush:
            return EffectOutcome()
        }
    }

    private func channelOperation(
        _ verdict: APNSVerdict, environment: APNSEnvironment, now: Int64, random: inout FastRandom
    ) -> EffectOutcome {
        guard let operation = verdict.channelOperation, let bundleID = verdict.topic else { return EffectOutcome() }
        let scope = ChannelScope(bundleID: bundleID, environment: environment)
        switch operation {
        case .create:
            do {
                let channel = try registry.createChannel(
                    in: scope, storagePolicy: verdict.storagePolicy ?? .mostRecentMessageStored,
                    pushType: verdict.sentPushType ?? "LiveActivity", createdAt: now, using: &random)
                return EffectOutcome(change: .channelCreated(id: channel.id), recordChannelID: channel.id)
            } catch {
                return EffectOutcome(change: .rejected(error.reason))
            }
        case .read:
            guard let id = verdict.channelID, let channel = registry.channel(id), channel.scope == scope else {
                return EffectOutcome(change: .rejected(.channelNotRegistered))
            }
            var json = JSONWriter(capacity: 64)
            json.beginObject()
            json.key("message-storage-policy")
            json.number(channel.storagePolicy.rawValue)
            json.key("push-type")
            json.string(channel.pushType)
            json.endObject()
            return EffectOutcome(change: .body(json.bytes))
        case .delete:
            guard let id = verdict.channelID, registry.deleteChannel(id, in: scope) != nil else {
                return EffectOutcome(change: .rejected(.channelNotRegistered))
            }
            return EffectOutcome()
        case .list:
            var json = JSONWriter(capacity: 256)
            json.beginObject()
            json.key("channels")
            json.beginArray()
            for channel in registry.channelDirectory().channels(in: scope) { json.string(channel.id) }
            json.endArray()
            json.endObject()
            return EffectOutcome(change: .body(json.bytes))
        }
    }

    /// A push-to-start (`event: start`) accepted for a device whose `aps` names an
    /// `input-push-channel` of the same app and environment: the started activity listens to
    /// that channel. Returns the channel id.
    private func subscribeStartedActivity(
        _ verdict: APNSVerdict, request: APNSRequest, environment: APNSEnvironment
    ) -> String? {
        guard let token = verdict.deviceToken, request.payload.contains(Self.inputPushChannelKey),
            let payload = JSONValue.parse(request.payload), case .string("start")? = payload["aps"]?["event"],
            let id = PayloadAnalyzer.inputPushChannel(in: payload)
        else { return nil }
        let live = registry.channel(id)
        // A deleted channel whose kept message may still be delivered (off by default): the
        // same app and environment only, and nothing to subscribe to.
        guard let channel = live ?? registry.deletedChannelKeepingMessage(id),
            channel.environment == environment,
            verdict.topic.map({ Self.bundleID(ofLiveActivityTopic: $0) == channel.bundleID }) ?? false
        else { return nil }
        if live != nil { registry.subscribe(token, to: id) }
        return id
    }

    /// The delivery of channel `channelID`'s kept message to the device a push-to-start
    /// (`start`, recorded as `start`) just subscribed, as a device that starts listening gets
    /// the channel's most recent message; `nil` when the channel keeps none.
    func storedDelivery(after start: DeliveryRecord, channelID: String) -> DeliveryRecord? {
        guard let message = registry.storedMessage(of: channelID, at: start.receivedAt) else { return nil }
        var record = start
        record.payload = message.payload
        record.payloadSize = message.payload.count
        record.apnsID = .echoed(message.requestID)
        record.uniqueID = nil
        record.channelID = channelID
        record.viaChannel = true
        return record
    }

    /// What a broadcast answered 200 does: a storage channel keeps it as its message; every
    /// device subscribed to its channel now gets it (the fan-out returned, which the store
    /// records, in the background when it is large); a broadcast whose `aps.event` is `end`
    /// then ends every subscription (the activities ended). Costs the same whatever the
    /// channel's size: the subscribers are taken as a copy-on-write set.
    func fanOut(of broadcast: DeliveryRecord) -> BroadcastFanOut? {
        guard let id = broadcast.channelID, let channel = registry.channel(id) else { return nil }
        if channel.storagePolicy == .mostRecentMessageStored,
            let expiration = broadcast.headerBlock.firstValue(named: "apns-expiration").flatMap({ Int64($0) }),
            let message = StoredBroadcast(
                payload: broadcast.payload, requestID: broadcast.apnsID.text, sentAt: broadcast.receivedAt,
                expiration: expiration)
        {
            registry.storeBroadcast(message, in: id)
        }
        let ends = broadcast.payload.contains(Self.endEventValue) && Self.isEndEvent(broadcast.payload)
        let tokens = ends ? registry.unsubscribeAll(from: id) : registry.subscribers(of: id)
        guard !tokens.isEmpty else { return nil }
        return BroadcastFanOut(
            of: broadcast, bundleID: channel.bundleID, tokens: tokens, storagePolicy: channel.storagePolicy)
    }

    /// Whether a broadcast's `aps.event` is `end`.
    private static func isEndEvent(_ payload: [UInt8]) -> Bool {
        guard case .string("end")? = JSONValue.parse(payload)?["aps"]?["event"] else { return false }
        return true
    }

    /// Bytes every `end` event's payload holds: one without them is not parsed.
    private static let endEventValue = Array("\"end\"".utf8)

    /// The bundle ID of a Live Activity topic (`<bundle>.push-type.liveactivity`).
    static func bundleID(ofLiveActivityTopic topic: String) -> String {
        guard let suffix = APNSPushType.liveactivity.requiredTopicSuffix, topic.hasSuffix(suffix) else {
            return topic
        }
        return String(topic.dropLast(suffix.count))
    }

    /// The key a push-to-start names its channel with: a payload without these bytes is not
    /// parsed.
    private static let inputPushChannelKey = Array("input-push-channel".utf8)
}
