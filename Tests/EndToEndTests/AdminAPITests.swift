import APNSMock
import APNSMockCore
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
        try await E2E.withMock { mock in
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
                ((rejected["deliveries"] as? [[String: Any]])?.first?["response"] as? [String: Any])?["reason"]
                    as? String
                    == "BadDeviceToken")
            let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries?limit=2&order=desc")
            #expect((page["deliveries"] as? [[String: Any]])?.compactMap { $0["sequence"] as? Int } == [3, 2])
            #expect(page["next"] as? Int == 2)
            let (_, since) = try await E2E.adminGET(mock, "/v1/deliveries?since=2")
            #expect((since["deliveries"] as? [[String: Any]])?.compactMap { $0["sequence"] as? Int } == [3])

            let delete = try await E2E.run(
                "curl", ["-sS", "-X", "DELETE", "-w", "%{http_code}", mock.endpoints.adminURL + "/v1/deliveries"])
            #expect(delete.stdout == #"{"deleted":3}200"#)
            let (_, empty) = try await E2E.adminGET(mock, "/v1/deliveries")
            #expect(empty["total"] as? Int == 0)
            try await push(mock, token: token)
            let (_, after) = try await E2E.adminGET(mock, "/v1/deliveries")
            #expect((after["deliveries"] as? [[String: Any]])?.first?["sequence"] as? Int == 4)
        }
    }

    @Test func errorsNameTheParameter() async throws {
        try await E2E.withMock { mock in
            let (status, body) = try await E2E.adminGET(mock, "/v1/deliveries?limit=abc")
            #expect(status == 400)
            let error = try #require(body["error"] as? [String: Any])
            #expect(error["code"] as? String == "badParameter")
            #expect((error["message"] as? String)?.contains("'limit'") == true)
            let (missing, notFound) = try await E2E.adminGET(
                mock, "/v1/deliveries/7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D")
            #expect(missing == 404)
            #expect((notFound["error"] as? [String: Any])?["code"] as? String == "notFound")
            let (badID, _) = try await E2E.adminGET(mock, "/v1/deliveries/not-a-uuid")
            #expect(badID == 400)
        }
    }

    /// A record holds every header fact the request carried, whatever the verdict, and its
    /// response what was answered (a 410's `timestamp` included).
    @Test func earlyRejectionsKeepWhatWasSent() async throws {
        let unregistered = E2E.randomToken()
        try await E2E.withMock(
            E2E.mockConfiguration { configuration in
                configuration.devices = [
                    DeviceRegistration(token: unregistered, state: .unregistered(at: 1_650_000_000_000))
                ]
            }
        ) { mock in
            try await push(mock, token: "nothex")
            try await push(mock, token: unregistered)
            let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries")
            let records = try #require(page["deliveries"] as? [[String: Any]])
            #expect(records.count == 2)
            let rejected = records[0]
            #expect(rejected["token"] as? String == "nothex")
            #expect(rejected["pushType"] as? String == "alert")
            #expect(rejected["topic"] as? String == "com.example.app")
            let auth = try #require(rejected["auth"] as? [String: Any])
            #expect(auth["method"] as? String == "token")
            #expect(auth["teamId"] as? String == "DEF123GHIJ")
            #expect(auth["keyId"] as? String == "ABC123DEFG")
            #expect(auth["signatureVerified"] as? Bool == false)
            #expect((rejected["response"] as? [String: Any])?["reason"] as? String == "BadDeviceToken")
            let gone = try #require(records[1]["response"] as? [String: Any])
            #expect(gone["status"] as? Int == 410)
            #expect(gone["timestamp"] as? Int == 1_650_000_000_000)
            #expect(records[1]["respondedAt"] as? Int != nil)
        }
    }
}
