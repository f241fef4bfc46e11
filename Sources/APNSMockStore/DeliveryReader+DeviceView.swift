import APNSMockCore

extension DeliveryReader {
    /// What device `token`'s user would see at `now` (epoch ms, the mock clock): built by
    /// `DeviceView` from the records the store holds for the token (read a page at a time, by
    /// the token index, analysed for their previews) and what APNs holds for it.
    public func deviceView(of token: String, now: Int64) -> DeviceView {
        let token = token.lowercased()
        let conditions = store.deviceConditions(of: token)
        let held = store.heldPushes(of: token).map { item in
            (held: item.held, push: item.record.flatMap { DeviceViewPush(analyses.analyzed($0)) })
        }
        var pushes: [DeviceViewPush] = []
        var query = DeliveryQuery.where(token: token, limit: 1000)
        while true {
            let page = self.query(query)
            pushes.append(contentsOf: page.deliveries.compactMap(DeviceViewPush.init))
            guard let next = page.next else { break }
            query.since = next
        }
        return DeviceView(token: token, conditions: conditions, pushes: pushes, held: held, now: now)
    }
}

extension DeviceViewPush {
    /// The view's part of `record` (analysed, for its preview): `nil` for a record that is no
    /// accepted push to a device (rejected, pending, a broadcast or channel request).
    init?(_ record: DeliveryRecord) {
        guard let delivery = record.delivery else { return nil }
        let pushType = record.pushType ?? .alert
        self.init(
            sequence: record.sequence, apnsID: record.apnsID.text, topic: record.topic, pushType: pushType,
            collapseID: record.header("apns-collapse-id"), channelID: record.viaChannel ? record.channelID : nil,
            delivery: delivery, preview: record.analysis?.preview,
            aps: pushType == .liveactivity ? JSONValue.parse(record.payload)?["aps"] : nil)
    }
}
