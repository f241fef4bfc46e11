import APNSMock
import Foundation
import Testing

/// The admin HTTP API over a real socket.
@Suite(.serialized) struct AdminAPITests {
    func push(_ mock: RunningMock, token: String, topic: String = "com.example.app", pushType: String = "alert")
        async throws
    {
        _ = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", E2E.caFile, "-o", "/dev/null", "-H", E2E.authorizationHeader, "-H",
                "apns-topic: \(topic)", "-H",
                "apns-push-type: \(pushType)", "--data-binary", #"{"aps":{}}"#,
                "\(mock.endpoints.apnsURL)/3/device/\(token)",
            ])
    }

    @Test func healthListFilterPageAndDelete() async throws {
        let mock = try await E2E.startMock()
        defer { Task { await mock.stop() } }
        let (healthStatus, health) = try await E2E.adminGET(mock, "/health")
        #expect(healthStatus == 200 && health["status"] as? String == "ok")

        let token = E2E.randomToken()
        try await push(mock, token: token)
        try await push(mock, token: token, topic: "com.example.app.voip", pushType: "voip")
        try await push(mock, token: "zz")

        let (_, all) = try await E2E.adminGET(mock, "/v1/deliveries")
        #expect(all["total"] as? Int == 3)
        #expect(all["dropped"] as? Int == 0)
        #expect(all["next"] is NSNull)
        let (_, voip) = try await E2E.adminGET(mock, "/v1/deliveries?pushType=voip&token=\(token.uppercased())")
        #expect((voip["deliveries"] as? [Any])?.count == 1)
        let (_, rejected) = try await E2E.adminGET(mock, "/v1/deliveries?status=400")
        #expect(
            ((rejected["deliveries"] as? [[String: Any]])?.first?["response"] as? [String: Any])?["reason"] as? String
                == "BadDeviceToken")
        let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries?limit=2&order=desc")
        #expect((page["deliveries"] as? [[String: Any]])?.compactMap { $0["sequence"] as? Int } == [3, 2])
        #expect(page["next"] as? Int == 2)
        let (_, since) = try await E2E.adminGET(mock, "/v1/deliveries?since=2")
        #expect((since["deliveries"] as? [[String: Any]])?.compactMap { $0["sequence"] as? Int } == [3])

        let delete = try await E2E.run(
            "curl", ["-sS", "-X", "DELETE", "-w", "%{http_code}", mock.endpoints.adminURL + "/v1/deliveries"])
        #expect(delete.stdout == "204")
        let (_, empty) = try await E2E.adminGET(mock, "/v1/deliveries")
        #expect(empty["total"] as? Int == 0)
        try await push(mock, token: token)
        let (_, after) = try await E2E.adminGET(mock, "/v1/deliveries")
        #expect((after["deliveries"] as? [[String: Any]])?.first?["sequence"] as? Int == 4)
    }

    @Test func errorsNameTheParameter() async throws {
        let mock = try await E2E.startMock()
        defer { Task { await mock.stop() } }
        let (status, body) = try await E2E.adminGET(mock, "/v1/deliveries?limit=abc")
        #expect(status == 400)
        let error = try #require(body["error"] as? [String: Any])
        #expect(error["code"] as? String == "badParameter")
        #expect((error["message"] as? String)?.contains("'limit'") == true)
        let (missing, notFound) = try await E2E.adminGET(mock, "/v1/deliveries/7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D")
        #expect(missing == 404)
        #expect((notFound["error"] as? [String: Any])?["code"] as? String == "notFound")
        let (badID, _) = try await E2E.adminGET(mock, "/v1/deliveries/not-a-uuid")
        #expect(badID == 400)
    }
}
