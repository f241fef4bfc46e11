import APNSMockCore
import Testing

@testable import APNSMockStore

/// The record's field table (`DeliveryRecord.Field.definition`) is the one definition of its
/// fields: the JSON, the stored form and the matcher agree with it, or these tests fail.
@Suite struct RecordFieldTableTests {
    /// A record with every field set to something other than its default.
    static func everyFieldSet() -> DeliveryRecord {
        var headers = HeaderBlock()
        // Without a signature: the store keeps provider tokens without theirs.
        headers.append(name: "authorization", value: "bearer eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJUIn0")
        headers.append(name: "apns-priority", value: "5")
        headers.append(name: "apns-expiration", value: "1700000000")
        headers.append(name: "apns-collapse-id", value: "c1")
        var record = DeliveryRecord(
            // Not POST, which the codec stores as no entry.
            receivedAt: 1_700_000_000_000, connectionID: 7, streamID: 9, environment: .production, method: "PUT",
            // Not the usual `/3/device/<token>`, which the codec rebuilds from the token instead of storing.
            path: "/3/device/" + String(repeating: "ab", count: 32) + "/x", authority: "api.push.apple.com",
            headerBlock: headers, token: String(repeating: "ab", count: 32), topic: "com.example.app",
            pushType: .background, apnsID: .echoed("7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"),
            uniqueID: .echoed("a6e3a9c2-0f5e-4b7a-9d2c-1e8f7a6b5c4d"), payload: Array(#"{"aps":{"badge":1}}"#.utf8),
            payloadSize: 19,
            authentication: AuthenticationResult(
                method: .token, teamID: "TEAM123456", keyID: "KEY1234567", signatureVerified: true, keyUnknown: false,
                certificateSubject: nil, certificateTopics: []),
            response: DeliveryResponse(
                status: 410, reason: .unregistered, timestamp: 1_650_000_000_000, respondedAt: 1_700_000_000_005),
            outcome: .answered, faultID: "f3", kind: .broadcast, channelID: "dHN0LWNoYW5uZWwtaWQ=", viaChannel: true,
            detail: "the device token was unregistered at 1650000000000 (epoch ms)",
            webPush: Array(#"{"subscriptionId":"abc","decrypted":true}"#.utf8))
        record.deliveryHistory = [
            .stored(at: 1_700_000_000_005, until: 1_700_003_600_000), .discarded(.replaced, at: 1_700_000_060_000),
        ]
        return record
    }

    static func keys(_ json: [UInt8]) -> [String] {
        guard case .object(let members)? = JSONValue.parse(json) else { return [] }
        return members.map(\.key)
    }

    @Test func theJSONWritesTheTablesKeysInOrder() {
        let store = DeliveryStore()
        store.append(Self.everyFieldSet())
        let read = DeliveryReader(store: store, analyses: PayloadAnalyses()).record(sequence: 1)!
        let summary = DeliveryRecordJSON.summaryKey.description
        #expect(
            Self.keys(DeliveryRecordJSON.encode(read))
                == [summary] + DeliveryRecord.jsonKeys + DeliveryRecordJSON.analysisKeys)
        var unanalysed = Self.everyFieldSet()
        unanalysed.sequence = 1
        #expect(Self.keys(DeliveryRecordJSON.encode(unanalysed)) == [summary] + DeliveryRecord.jsonKeys)
    }

    /// Every field survives the store: written to the fixed part or the blob as the table says,
    /// and read back the same.
    /// The admin JSON's `headers` object: each name once, where it first came, its values joined
    /// by ", " when it came more than once, known (coded) and other names alike; a name with a
    /// character JSON must escape is escaped.
    @Test func theHeadersObjectJoinsRepeatedNamesInFirstSeenOrder() throws {
        var record = Self.everyFieldSet()
        record.headerBlock = HeaderBlock([
            HTTPHeaderField(name: "apns-topic", value: "com.example.app"),
            HTTPHeaderField(name: "x-one", value: "a"),
            HTTPHeaderField(name: "x-two", value: "b"),
            HTTPHeaderField(name: "apns-topic", value: "again"),
            HTTPHeaderField(name: "x-two", value: "c"),
            HTTPHeaderField(name: "x-q\"uote", value: "d"),
            HTTPHeaderField(name: "apns-priority", value: "5"),
        ])
        let value = try #require(JSONValue.parse(DeliveryRecordJSON.encode(record)))
        guard case .object(let headers) = try #require(value["headers"]) else {
            Issue.record("headers is not an object")
            return
        }
        #expect(headers.map(\.key) == ["apns-topic", "x-one", "x-two", "x-q\"uote", "apns-priority"])
        #expect(headers.map(\.value) == ["com.example.app, again", "a", "b, c", "d", "5"].map(JSONValue.string))
        #expect(value["priority"]?.scalarText == "5")
    }

    @Test func everyFieldRoundTripsThroughTheStore() {
        let store = DeliveryStore()
        var original = Self.everyFieldSet()
        let sequence = store.append(original)
        original.sequence = sequence
        let read = store.record(sequence: sequence)!
        #expect(
            String(decoding: DeliveryRecordJSON.encode(read), as: UTF8.self)
                == String(decoding: DeliveryRecordJSON.encode(original), as: UTF8.self))
    }

    /// Each matcher field reads a record field the table names, and each field the table says a
    /// matcher reads is a matcher field.
    @Test func theMatcherFieldsAreTheTablesMatcherFields() {
        let fromTable = Set(DeliveryRecord.Field.allCases.flatMap(\.definition.matcher))
        #expect(fromTable == Set(DeliveryMatcher.fieldNames))
    }

    /// The fixed fields are those `StoredDelivery` has columns for; the others are blob entries.
    @Test func theStorageSplitIsTheTables() {
        let fixed = DeliveryRecord.Field.allCases.filter { $0.definition.storage == .fixed }
        #expect(
            fixed == [
                .sequence, .kind, .receivedAt, .connectionID, .streamID, .environment, .topic, .pushType, .payloadSize,
                .response, .outcome, .faultID,
            ])
    }

    @Test func kindIsAMatcherFieldAndAColumn() throws {
        let store = DeliveryStore()
        store.append(Self.everyFieldSet())
        var matcher = DeliveryMatcher()
        try matcher.add(queryParameter: "kind", value: "broadcast")
        #expect(store.query(DeliveryQuery(matcher: matcher)).total == 1)
        var push = DeliveryMatcher()
        try push.add(queryParameter: "kind", value: "push")
        #expect(store.query(DeliveryQuery(matcher: push)).total == 0)
        #expect(throws: MatcherError.self) { try matcher.add(queryParameter: "kind", value: "fax") }
    }

    @Test func channelIdIsAMatcherFieldReadFromTheBlob() throws {
        let store = DeliveryStore()
        store.append(Self.everyFieldSet())
        var matcher = DeliveryMatcher()
        try matcher.add(queryParameter: "channelId", value: "dHN0LWNoYW5uZWwtaWQ=")
        #expect(store.query(DeliveryQuery(matcher: matcher)).total == 1)
        var other = DeliveryMatcher()
        try other.add(queryParameter: "channelId", value: "b3RoZXI=")
        #expect(store.query(DeliveryQuery(matcher: other)).total == 0)
        let record = try #require(store.query(DeliveryQuery(matcher: matcher)).deliveries.first)
        #expect(record.viaChannel)
    }

    /// A push as providers send it (POST, a token of lower-case hex digits, generated apns-id
    /// and apns-unique-id) is stored packed — 33 bytes for the token, 17 for each id, none for
    /// the method — and reads back as it was; other tokens and ids are kept as sent.
    @Test func packedFieldsReadBackAsTheyWere() throws {
        let token = String(repeating: "0f9a", count: 16)
        var random = FastRandom()
        let apnsID = ResponseMessageID.generate(using: &random)
        let uniqueID = ResponseMessageID.generate(using: &random, lowercase: true)
        var push = DeliveryStoreTests.draft(token: token)
        push.apnsID = apnsID
        push.uniqueID = uniqueID
        var asSent = DeliveryStoreTests.draft(token: String(repeating: "0F9A", count: 16))
        asSent.method = "GET"
        asSent.uniqueID = .echoed(uniqueID.text)

        let packedBytes = RecordCodec.encode(push)
        let plainBytes = RecordCodec.encode(asSent)
        // token 34 bytes against 66, apns-id 19 against 38, unique id 19 against 38, method none against 5.
        #expect(plainBytes.count - packedBytes.count == 32 + 19 + 19 + 5)

        let store = DeliveryStore()
        store.record(push)
        store.append(asSent)
        let records = store.query(DeliveryQuery.where(order: .asc)).deliveries
        try #require(records.count == 2)
        #expect(records[0].method == "POST" && records[0].token == token && records[0].path == "/3/device/" + token)
        #expect(records[0].apnsID.isGenerated && records[0].apnsID.text == push.apnsID.text)
        #expect(records[0].uniqueID?.text == uniqueID.text)
        #expect(records[1].method == "GET" && records[1].token == String(repeating: "0F9A", count: 16))
        #expect(records[1].apnsID.text == "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D")
        #expect(store.query(DeliveryQuery.where(apnsID: push.apnsID.text)).deliveries.first?.sequence == 1)
        #expect(store.query(DeliveryQuery.where(token: token)).total == 1)
    }

    /// The codec writes an entry for every field the table keeps in the blob (the fixture sets
    /// them all), so a new variable field cannot be left out of `RecordCodec.encode`; the round
    /// trip above then checks `decode`.
    @Test func everyVariableFieldHasABlobEntry() {
        let bytes = RecordCodec.encode(Self.everyFieldSet())
        for field in DeliveryRecord.Field.allCases where field.definition.storage == .variable {
            let entry = bytes.withUnsafeBytes { RecordCodec.field(field, in: $0) }
            #expect(entry != nil, "no blob entry for \(field)")
        }
    }
}
