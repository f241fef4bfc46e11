import APNSMockCore
import Testing

@testable import APNSMockStore

/// `DeliveryReader.deviceView(of:now:)`: the records the store holds for a token, as the view's
/// pushes (collapse id from the header, preview from the analysis, `aps` of Live Activity
/// pushes, the channel of a broadcast's delivery), and what the device's inbox holds.
@Suite struct DeviceViewReaderTests {
    static let token = String(repeating: "ab", count: 32)
    static let activityTopic = "com.example.app.push-type.liveactivity"

    static func record(
        pushType: APNSPushType = .alert, topic: String = "com.example.app", payload: String,
        collapseID: String? = nil, channelID: String? = nil, token: String = token, status: Int = 200
    ) -> DeliveryRecord {
        var record = DeliveryStoreTests.draft(
            token: token, topic: topic, status: status, pushType: pushType, payload: payload)
        if let collapseID { record.headerBlock.append(name: "apns-collapse-id", value: collapseID) }
        if let channelID {
            record.channelID = channelID
            record.viaChannel = true
        }
        return record
    }

    @Test func theRecordsOfTheTokenBecomeItsView() throws {
        let store = DeliveryStore()
        let reader = DeliveryReader(store: store, analyses: PayloadAnalyses())
        store.append(Self.record(payload: #"{"aps":{"alert":{"title":"First"},"badge":4}}"#, collapseID: "c"))
        store.append(Self.record(payload: #"{"aps":{"alert":{"title":"Second"}}}"#, collapseID: "c"))
        store.append(Self.record(payload: #"{"aps":{"alert":{"title":"Refused"}}}"#, status: 400))
        store.append(
            Self.record(payload: #"{"aps":{"alert":{"title":"Elsewhere"}}}"#, token: String(repeating: "cd", count: 32))
        )
        store.append(
            Self.record(
                pushType: .liveactivity, topic: Self.activityTopic,
                payload: #"{"aps":{"timestamp":1,"event":"start","content-state":{"score":"0-0"}}}"#))
        store.append(
            Self.record(
                pushType: .liveactivity, topic: Self.activityTopic,
                payload: #"{"aps":{"timestamp":2,"event":"update","content-state":{"score":"1-0"}}}"#, channelID: "chan"
            ))

        let view = reader.deviceView(of: Self.token.uppercased(), now: 1_700_000_001_000)
        #expect(view.token == Self.token)
        #expect(view.notifications.map(\.preview?.title) == ["Second"])
        #expect(view.notifications.first?.collapseID == "c" && view.notifications.first?.replaced == 1)
        #expect(view.badges.map(\.badge) == [4])
        #expect(view.liveActivities.map(\.channelID) == ["chan", nil])
        #expect(
            view.liveActivities.map(\.contentState) == [
                JSONValue.parse(#"{"score":"1-0"}"#), JSONValue.parse(#"{"score":"0-0"}"#),
            ])
        #expect(view.stored.isEmpty)
    }

    @Test func whatTheInboxHoldsIsStored() throws {
        let store = DeliveryStore()
        let reader = DeliveryReader(store: store, analyses: PayloadAnalyses())
        store.setDeviceConditions(DeviceConditions(presence: .offline), of: Self.token, now: 1_699_999_999_000)
        store.append(Self.record(payload: #"{"aps":{"alert":{"title":"Held"}}}"#))
        let view = reader.deviceView(of: Self.token, now: 1_700_000_001_000)
        #expect(view.notifications.isEmpty)
        #expect(view.presence == .offline)
        let stored = try #require(view.stored.first)
        #expect(view.stored.count == 1)
        #expect(stored.preview?.title == "Held" && stored.cause == .offline && stored.topic == "com.example.app")
        #expect(stored.storedAt == 1_700_000_000_001)
    }
}
