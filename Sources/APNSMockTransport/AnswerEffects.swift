import APNSMockCore
import APNSMockRegistry
import APNSMockStore

/// What a success answer does beyond the wire, carried out when it goes out (APNS-REFERENCE
/// §6): a channel request changes the registry's channels (and the answer gets what it returns:
/// a new `apns-channel-id`, a configuration, a list); a broadcast reaches the devices subscribed
/// to its channel (one record each, `viaChannel`), and its `end` event ends their subscriptions;
/// a push-to-start whose `aps` names an `input-push-channel` subscribes the device's new Live
/// Activity to that channel (the mock's model of the device).
///
/// The rules decided from a snapshot; this runs against the registry as it is now, so a channel
/// deleted or filled meanwhile is answered as Apple would (`ChannelNotRegistered`,
/// `CannotCreateChannelConfig`).
struct AnswerEffects {
    let registry: Registry

    /// Whether a request judged as `verdict` may have an effect (cheap: checked for every push).
    static func mayHaveEffect(_ verdict: APNSVerdict) -> Bool {
        switch verdict.kind {
        case .channel, .broadcast: true
        case .push: verdict.pushType == .liveactivity && verdict.isAccepted
        }
    }

    /// Carries out a channel request's operation and completes `answer` with what it returns; a
    /// push-to-start's subscription. Returns the channel the record names (`nil`: the verdict's).
    /// Only a request the rules accepted and that is answered with a success has an effect: a
    /// fault rule's failure on an accepted request has none, and its success on a rejected one
    /// goes out as the rule says, with none either.
    func apply(
        _ verdict: APNSVerdict, request: APNSRequest, environment: APNSEnvironment, answer: inout APNSAnswer,
        now: Int64, random: inout FastRandom
    ) -> String? {
        guard verdict.isAccepted, (200...299).contains(answer.status) else { return nil }
        switch verdict.kind {
        case .channel:
            return applyChannelOperation(verdict, environment: environment, answer: &answer, now: now, random: &random)
        case .broadcast:
            if let id = verdict.channelID, registry.channel(id)?.environment != environment {
                // Deleted since the rules looked.
                answer.reject(APNSStatus.forReason(.channelNotRegistered), .channelNotRegistered)
            }
            return nil
        case .push:
            return subscribeStartedActivity(verdict, request: request, environment: environment)
        }
    }

    private func applyChannelOperation(
        _ verdict: APNSVerdict, environment: APNSEnvironment, answer: inout APNSAnswer, now: Int64,
        random: inout FastRandom
    ) -> String? {
        guard let operation = verdict.channelOperation, let bundleID = verdict.topic else { return nil }
        let scope = ChannelScope(bundleID: bundleID, environment: environment)
        switch operation {
        case .create:
            do {
                let channel = try registry.createChannel(
                    in: scope, storagePolicy: verdict.storagePolicy ?? .mostRecentMessageStored,
                    pushType: verdict.sentPushType ?? "LiveActivity", createdAt: now, using: &random)
                answer.channelID = channel.id
                return channel.id
            } catch {
                answer.reject(APNSStatus.forReason(error.reason), error.reason)
                return nil
            }
        case .read:
            guard let id = verdict.channelID, let channel = registry.channel(id), channel.scope == scope else {
                answer.reject(APNSStatus.forReason(.channelNotRegistered), .channelNotRegistered)
                return nil
            }
            var json = JSONWriter(capacity: 64)
            json.beginObject()
            json.key("message-storage-policy")
            json.number(channel.storagePolicy.rawValue)
            json.key("push-type")
            json.string(channel.pushType)
            json.endObject()
            answer.body = json.bytes
            return nil
        case .delete:
            guard let id = verdict.channelID, registry.deleteChannel(id, in: scope) != nil else {
                answer.reject(APNSStatus.forReason(.channelNotRegistered), .channelNotRegistered)
                return nil
            }
            return nil
        case .list:
            var json = JSONWriter(capacity: 256)
            json.beginObject()
            json.key("channels")
            json.beginArray()
            for channel in registry.channelDirectory().channels(in: scope) { json.string(channel.id) }
            json.endArray()
            json.endObject()
            answer.body = json.bytes
            return nil
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

    /// The records of a broadcast answered 200: one per device subscribed to its channel now,
    /// as if APNs had pushed it to each (`viaChannel`); a broadcast whose `aps.event` is `end`
    /// then ends every subscription (the activities ended).
    func deliveries(of broadcast: DeliveryRecord) -> [DeliveryRecord] {
        guard let id = broadcast.channelID, let channel = registry.channel(id) else { return [] }
        let payload = JSONValue.parse(broadcast.payload)
        if channel.storagePolicy == .mostRecentMessageStored,
            let expiration = broadcast.headerBlock.firstValue(named: "apns-expiration").flatMap({ Int64($0) }),
            let message = StoredBroadcast(
                payload: broadcast.payload, requestID: broadcast.apnsID.text, sentAt: broadcast.receivedAt,
                expiration: expiration)
        {
            registry.storeBroadcast(message, in: id)
        }
        var records: [DeliveryRecord] = []
        for token in channel.subscribers.sorted() {
            var record = broadcast
            record.kind = .push
            record.token = token
            record.topic = channel.bundleID + (APNSPushType.liveactivity.requiredTopicSuffix ?? "")
            record.pushType = .liveactivity
            record.apnsID = .echoed(broadcast.apnsID.text)
            record.uniqueID = nil
            record.viaChannel = true
            records.append(record)
        }
        if case .string("end")? = payload?["aps"]?["event"] { registry.unsubscribeAll(from: id) }
        return records
    }

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
