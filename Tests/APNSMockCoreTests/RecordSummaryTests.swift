import Testing

@testable import APNSMockCore

/// A record's one-line summary (`RecordSummary`), the words every surface prints for a record.
@Suite struct RecordSummaryTests {
    static let token = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"
    static let id = "8E1C3B5D-9E34-4B4C-A2D6-1F0A3B0C9D11"

    @Test(arguments: [
        (
            RecordSummary(
                sequence: 12, status: 200, kind: .push, token: token, topic: "com.example.app", pushType: "alert",
                apnsID: id),
            "#12  200  push  740f4707…78ad  com.example.app  alert  apns-id \(id)"
        ),
        (
            RecordSummary(
                sequence: 3, status: 410, reason: "Unregistered", token: token, topic: "com.example.app",
                pushType: "alert", apnsID: id, faultID: "gone"),
            "#3  410 Unregistered  push  740f4707…78ad  com.example.app  alert  apns-id \(id)  fault gone"
        ),
        // Never answered: the outcome instead of a status.
        (
            RecordSummary(sequence: 4, outcome: .hung, token: "abcd1234", apnsID: id),
            "#4  hung  push  abcd1234  apns-id \(id)"
        ),
        // A broadcast: its channel, no token.
        (
            RecordSummary(
                sequence: 5, status: 200, kind: .broadcast, channelID: "dHN0", topic: "com.example.app",
                pushType: "liveactivity", apnsID: id),
            "#5  200  broadcast  channel dHN0  com.example.app  liveactivity  apns-id \(id)"
        ),
        // Judged by the delivery model: what became of it.
        (
            RecordSummary(
                sequence: 6, status: 200, token: token, apnsID: id,
                delivery: .stored(at: 1, until: 1_795_331_883_008), judged: true),
            "#6  200  push  740f4707…78ad  apns-id \(id)  stored until 1795331883008"
        ),
        (
            RecordSummary(
                sequence: 7, status: 200, token: token, apnsID: id, delivery: .discarded(.expired, at: 9),
                judged: true),
            "#7  200  push  740f4707…78ad  apns-id \(id)  discarded expired"
        ),
        // Delivered when answered (no history): nothing added.
        (
            RecordSummary(sequence: 8, status: 200, token: token, apnsID: id, delivery: .delivered(at: 2)),
            "#8  200  push  740f4707…78ad  apns-id \(id)"
        ),
    ])
    func theLineHasEachPartPresent(_ summary: RecordSummary, _ line: String) {
        #expect(summary.text == line)
    }
}
