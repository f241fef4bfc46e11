import APNSMock
import APNSMockCore
import Crypto
import Foundation
import Testing

/// `/v1/keys` and `/v1/devices` over a real socket.
@Suite(.serialized) struct RegistryAdminTests {
    struct Answer {
        var status: Int
        var text: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
    }

    /// `method path` on the admin API with an optional JSON body.
    static func admin(_ mock: RunningMock, _ method: String, _ path: String, _ body: String? = nil) async throws
        -> Answer
    {
        var arguments = ["-sS", "-X", method, "-w", "\n%{http_code}"]
        if let body { arguments += ["-H", "content-type: application/json", "--data-binary", body] }
        let output = try await E2E.run("curl", arguments + [mock.endpoints.adminURL + path])
        var lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.removeLast()) ?? 0
        return Answer(status: status, text: lines.joined(separator: "\n"))
    }

    static func json(_ object: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    static let publicPEM = try! String(
        contentsOfFile: E2E.repositoryRoot + "/certs/AuthKey_ABC123DEFG.pub.pem", encoding: .utf8)
    static let privatePEM = try! String(contentsOfFile: E2E.keyFile, encoding: .utf8)

    @Test func keysPutGetListDelete() async throws {
        try await E2E.withMock(E2E.mockConfiguration { $0.keys = [] }) { mock in
            let body = Self.json(["teamId": E2E.teamID, "publicKey": Self.publicPEM, "environment": "sandbox"])
            let created = try await Self.admin(mock, "PUT", "/v1/keys/ABC123DEFG", body)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.json["keyId"] as? String == "ABC123DEFG")
            #expect(created.json["teamId"] as? String == E2E.teamID)
            #expect(created.json["environment"] as? String == "sandbox")
            #expect(created.json["topics"] as? [String] == [])
            #expect(created.json["relatedKeyId"] is NSNull)
            let pem = try #require(created.json["publicKey"] as? String)
            #expect(
                try P256.Signing.PublicKey(pemRepresentation: pem).x963Representation
                    == P256.Signing.PublicKey(pemRepresentation: Self.publicPEM).x963Representation)

            let replaced = try await Self.admin(mock, "PUT", "/v1/keys/ABC123DEFG", body)
            #expect(replaced.status == 200)
            let fetched = try await Self.admin(mock, "GET", "/v1/keys/ABC123DEFG")
            #expect(fetched.status == 200 && fetched.json["keyId"] as? String == "ABC123DEFG")

            let topicKey = Self.json([
                "teamId": E2E.teamID, "privateKey": P256.Signing.PrivateKey().pemRepresentation,
                "topics": ["com.example.app"], "relatedKeyId": "ABC123DEFG",
            ])
            #expect(try await Self.admin(mock, "PUT", "/v1/keys/XYZ987WVUT", topicKey).status == 201)
            let list = try await Self.admin(mock, "GET", "/v1/keys")
            let keys = try #require(list.json["keys"] as? [[String: Any]])
            #expect(keys.compactMap { $0["keyId"] as? String } == ["ABC123DEFG", "XYZ987WVUT"])
            #expect(keys.last?["topics"] as? [String] == ["com.example.app"])
            #expect(keys.last?["relatedKeyId"] as? String == "ABC123DEFG")

            #expect(try await Self.admin(mock, "DELETE", "/v1/keys/ABC123DEFG").status == 204)
            let gone = try await Self.admin(mock, "DELETE", "/v1/keys/ABC123DEFG")
            #expect(gone.status == 404 && gone.errorCode == "notFound")
            let missing = try await Self.admin(mock, "GET", "/v1/keys/ABC123DEFG")
            #expect(missing.status == 404 && missing.errorMessage.contains("ABC123DEFG"))
        }
    }

    @Test func aPrivateKeyIsNeverEchoed() async throws {
        try await E2E.withMock(E2E.mockConfiguration { $0.keys = [] }) { mock in
            let answer = try await Self.admin(
                mock, "PUT", "/v1/keys/ABC123DEFG", Self.json(["teamId": E2E.teamID, "privateKey": Self.privatePEM]))
            #expect(answer.status == 201, "\(answer.text)")
            #expect(!answer.text.contains("PRIVATE"))
            let pem = try #require(answer.json["publicKey"] as? String)
            #expect(
                try P256.Signing.PublicKey(pemRepresentation: pem).x963Representation
                    == P256.Signing.PublicKey(pemRepresentation: Self.publicPEM).x963Representation)
            let list = try await Self.admin(mock, "GET", "/v1/keys")
            #expect(!list.text.contains("PRIVATE"))
        }
    }

    @Test func badKeyBodiesAndPathsNameTheField() async throws {
        try await E2E.withMock(E2E.mockConfiguration { $0.keys = [] }) { mock in
            let cases: [(String, String, String)] = [
                ("/v1/keys/ABC123DEFG", Self.json(["publicKey": Self.publicPEM]), "teamId is required"),
                (
                    "/v1/keys/ABC123DEFG", Self.json(["teamId": E2E.teamID, "publicKey": "nope"]),
                    "publicKey is not a PEM"
                ),
                (
                    "/v1/keys/ABC123DEFG",
                    Self.json(["teamId": E2E.teamID, "publicKey": Self.publicPEM, "privateKey": Self.privatePEM]),
                    "exactly one of publicKey or privateKey"
                ),
                (
                    "/v1/keys/ABC123DEFG",
                    Self.json(["teamId": E2E.teamID, "publicKey": Self.publicPEM, "environment": "prod"]),
                    "environment must be sandbox, production or both; got 'prod'"
                ),
                (
                    "/v1/keys/ABC123DEFG",
                    Self.json(["teamId": E2E.teamID, "publicKey": Self.publicPEM, "topics": "a"]),
                    "topics must be a list"
                ),
                (
                    "/v1/keys/ABC123DEFG", Self.json(["teamId": E2E.teamID, "publicKey": Self.publicPEM, "team": "x"]),
                    "team is not a known field"
                ),
                ("/v1/keys/ABC123DEFG", "teamId=DEF123GHIJ", "the body is not valid JSON"),
                ("/v1/keys/ABC123DEFG", "", "the body is not valid JSON"),
            ]
            for (path, body, message) in cases {
                let answer = try await Self.admin(mock, "PUT", path, body)
                #expect(answer.status == 400, "\(body): \(answer.text)")
                #expect(answer.errorCode == "badRequest", "\(answer.text)")
                #expect(answer.errorMessage.contains(message), "\(answer.errorMessage)")
                #expect(!answer.text.contains("BEGIN PRIVATE KEY"))
            }
            let badID = try await Self.admin(
                mock, "PUT", "/v1/keys/ABC-123", Self.json(["teamId": E2E.teamID, "publicKey": Self.publicPEM]))
            #expect(badID.status == 400 && badID.errorCode == "badParameter")
            #expect(badID.errorMessage.contains("path parameter 'keyId'"))
            #expect((try await Self.admin(mock, "GET", "/v1/keys").json["keys"] as? [Any])?.isEmpty == true)
        }
    }

    /// `POST /v1/devices`: many devices in one call, each checked as a PUT body with its token;
    /// one bad entry refuses them all, naming its index and field (issue 40).
    @Test func devicesInBulk() async throws {
        try await E2E.withMock { mock in
            let tokens = (0..<3).map { _ in E2E.randomToken() }
            let body = Self.json([
                "devices": [
                    ["token": tokens[0].uppercased(), "presence": "offline"],
                    ["token": tokens[1], "topic": "com.example.app"],
                    ["token": tokens[2], "state": "unregistered"],
                ]
            ])
            let answer = try await Self.admin(mock, "POST", "/v1/devices", body)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["count"] as? Int == 3 && answer.json["created"] as? Int == 3)
            let again = try await Self.admin(mock, "POST", "/v1/devices", body)
            #expect(again.json["created"] as? Int == 0 && again.json["replaced"] as? Int == 3, "\(again.text)")
            let offline = try await Self.admin(mock, "GET", "/v1/devices/\(tokens[0])")
            #expect(offline.json["presence"] as? String == "offline", "\(offline.text)")
            #expect(
                try await Self.admin(mock, "GET", "/v1/devices/\(tokens[2])").json["state"] as? String == "unregistered"
            )

            // One bad entry: nothing is changed, and the message names the entry.
            let fresh = E2E.randomToken()
            let refused = try await Self.admin(
                mock, "POST", "/v1/devices",
                Self.json(["devices": [["token": fresh], ["token": tokens[1], "presence": "asleep"]]]))
            #expect(refused.status == 400)
            #expect(refused.errorMessage.hasPrefix("devices[1].presence"), "\(refused.errorMessage)")
            #expect(try await Self.admin(mock, "GET", "/v1/devices/\(fresh)").status == 404)
            let twice = try await Self.admin(
                mock, "POST", "/v1/devices", Self.json(["devices": [["token": fresh], ["token": fresh.uppercased()]]]))
            #expect(twice.errorMessage == "devices[1].token is already given by devices[0]", "\(twice.errorMessage)")
            let noToken = try await Self.admin(
                mock, "POST", "/v1/devices", #"{"devices":[{"topic":"com.example.app"}]}"#)
            #expect(noToken.errorMessage == "devices[0].token is required", "\(noToken.errorMessage)")
        }
    }

    @Test func devicesListPagesInTokenOrder() async throws {
        try await E2E.withMock { mock in
            let fleet = (0..<5).map { _ in E2E.randomToken() }
            let body = Self.json(["devices": fleet.map { ["token": $0, "presence": "offline"] }])
            #expect(try await Self.admin(mock, "POST", "/v1/devices", body).status == 200)
            let everything = try await Self.admin(mock, "GET", "/v1/devices")
            let total = try #require(everything.json["count"] as? Int)
            #expect(everything.json["nextAfter"] == nil, "\(everything.text)")
            let all = try #require(everything.json["devices"] as? [[String: Any]]).compactMap { $0["token"] as? String }
            #expect(all.count == total && total >= 5 && all == all.sorted() && Set(fleet).isSubset(of: all))

            // Two at a time: each page follows the last, and the last page says no more.
            var paged: [String] = []
            var after: String?
            for _ in 0..<total {
                let page = try await Self.admin(
                    mock, "GET", "/v1/devices?limit=2" + (after.map { "&after=\($0.uppercased())" } ?? ""))
                #expect(page.status == 200 && page.json["count"] as? Int == total, "\(page.text)")
                let tokens = try #require(page.json["devices"] as? [[String: Any]]).compactMap {
                    $0["token"] as? String
                }
                #expect(tokens.count <= 2)
                paged += tokens
                after = page.json["nextAfter"] as? String
                if let after { #expect(after == tokens.last) } else { break }
            }
            #expect(paged == all)

            let badLimit = try await Self.admin(mock, "GET", "/v1/devices?limit=0")
            #expect(badLimit.status == 400)
            #expect(
                badLimit.errorMessage == "query parameter 'limit' must be a whole number from 1 to 100000; got '0'",
                "\(badLimit.errorMessage)")
            let unknown = try await Self.admin(mock, "GET", "/v1/devices?offset=2")
            #expect(
                unknown.errorMessage == "unknown query parameter 'offset'; GET /v1/devices takes after and limit",
                "\(unknown.errorMessage)")
        }
    }

    @Test func devicesPutGetListStateDelete() async throws {
        try await E2E.withMock { mock in
            let token = E2E.randomToken()
            let upper = token.uppercased()
            let created = try await Self.admin(
                mock, "PUT", "/v1/devices/\(upper)", #"{"topic":"com.example.app","environment":"sandbox"}"#)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.json["token"] as? String == token)
            #expect(created.json["topic"] as? String == "com.example.app")
            #expect(created.json["environment"] as? String == "sandbox")
            #expect(created.json["state"] as? String == "active")
            #expect(
                try await Self.admin(mock, "PUT", "/v1/devices/\(token)", #"{"topic":"com.example.app"}"#).status == 200
            )
            let fetched = try await Self.admin(mock, "GET", "/v1/devices/\(upper)")
            #expect(fetched.status == 200 && fetched.json["environment"] is NSNull)

            let other = E2E.randomToken(bytes: 80)
            #expect(try await Self.admin(mock, "PUT", "/v1/devices/\(other)").status == 201)
            let list = try await Self.admin(mock, "GET", "/v1/devices")
            let tokens = try #require(list.json["devices"] as? [[String: Any]]).compactMap { $0["token"] as? String }
            #expect(tokens == [token, other].sorted())

            let unregistered = try await Self.admin(
                mock, "POST", "/v1/devices/\(token)/unregister", #"{"unregisteredAt":1795331883008}"#)
            #expect(unregistered.status == 200, "\(unregistered.text)")
            #expect(unregistered.json["state"] as? String == "unregistered")
            #expect(unregistered.json["unregisteredAt"] as? Int == 1_795_331_883_008)
            #expect(unregistered.json["topic"] as? String == "com.example.app")

            let before = Int(Date().timeIntervalSince1970 * 1000)
            let expired = try await Self.admin(mock, "POST", "/v1/devices/\(token)/expire")
            let after = Int(Date().timeIntervalSince1970 * 1000)
            #expect(expired.status == 200)
            #expect(expired.json["state"] as? String == "expired")
            #expect(expired.json["unregisteredAt"] == nil)
            let expiredAt = try #require(expired.json["expiredAt"] as? Int)
            #expect(expiredAt >= before - 5 && expiredAt <= after + 5)

            let unknown = E2E.randomToken()
            let registeredByUnregister = try await Self.admin(mock, "POST", "/v1/devices/\(unknown)/unregister")
            #expect(registeredByUnregister.status == 200)
            #expect(registeredByUnregister.json["state"] as? String == "unregistered")

            #expect(try await Self.admin(mock, "DELETE", "/v1/devices/\(upper)").status == 204)
            let gone = try await Self.admin(mock, "GET", "/v1/devices/\(token)")
            #expect(gone.status == 404 && gone.errorCode == "notFound")
            #expect(try await Self.admin(mock, "DELETE", "/v1/devices/\(token)").status == 404)
        }
    }

    @Test func badDeviceBodiesAndTokensNameTheField() async throws {
        try await E2E.withMock { mock in
            let token = E2E.randomToken()
            // Not hex, odd length, 5 bytes (under 8), hex-looking letters that are not hex.
            for badToken in ["zz", "abc", "ababababab", "xyxyxyxyxyxyxyxyxyxy"] {
                let answer = try await Self.admin(mock, "PUT", "/v1/devices/\(badToken)", "{}")
                #expect(answer.status == 400 && answer.errorCode == "badParameter", "\(badToken): \(answer.text)")
                #expect(answer.errorMessage.contains("path parameter 'token'"))
            }
            let cases: [(String, String, String, String)] = [
                (
                    "PUT", "/v1/devices/\(token)", #"{"environment":"prod"}"#,
                    "environment must be sandbox or production"
                ),
                ("PUT", "/v1/devices/\(token)", #"{"topic":["a"]}"#, "topic must be a string"),
                ("PUT", "/v1/devices/\(token)", #"{"topics":"a"}"#, "topics is not a known field"),
                ("PUT", "/v1/devices/\(token)", "[", "the body is not valid JSON"),
                (
                    "POST", "/v1/devices/\(token)/unregister", #"{"unregisteredAt":"now"}"#,
                    "unregisteredAt must be a whole number"
                ),
                (
                    "POST", "/v1/devices/\(token)/expire", #"{"unregisteredAt":5}"#,
                    "unregisteredAt is not a known field"
                ),
            ]
            for (method, path, body, message) in cases {
                let answer = try await Self.admin(mock, method, path, body)
                #expect(answer.status == 400 && answer.errorCode == "badRequest", "\(body): \(answer.text)")
                #expect(answer.errorMessage.contains(message), "\(answer.errorMessage)")
            }
            #expect(try await Self.admin(mock, "GET", "/v1/devices/\(token)").status == 404)
        }
    }

    @Test func keysAndDevicesFromTheConfigurationAreListed() async throws {
        let file = try ConfigurationFile(contentsOf: E2E.repositoryRoot + "/apns-mock.example.yaml")
        try await E2E.withMock(
            E2E.mockConfiguration { configuration in
                configuration.keys = file.configuration.keys
                configuration.devices = file.configuration.devices
            }
        ) { mock in
            let keys = try #require(try await Self.admin(mock, "GET", "/v1/keys").json["keys"] as? [[String: Any]])
            #expect(keys.count == 1)
            #expect(keys.first?["keyId"] as? String == "ABC123DEFG")
            #expect(keys.first?["teamId"] as? String == "DEF123GHIJ")
            #expect(keys.first?["environment"] as? String == "both")
            let devices = try #require(
                try await Self.admin(mock, "GET", "/v1/devices").json["devices"] as? [[String: Any]])
            // In token order: the phone offline for ten minutes, the sample device, the uninstalled one.
            #expect(devices.compactMap { $0["state"] as? String } == ["active", "active", "unregistered"])
            #expect(devices.compactMap { $0["presence"] as? String } == ["online", "online", "online"])
            #expect(devices.map { ($0["periods"] as? [[String: Any]])?.count } == [1, 0, 0])
        }
    }
}
