import APNSMockCore
import Testing

/// Every example payload of the seed documents (`/work/shared/seeds/*.txt`), with the findings
/// and the preview the analyzer must give for it as an alert push (header sent, priority absent,
/// no strings loaded unless the row says so).
@Suite("Seed payloads")
struct SeedPayloadTests {
    struct Fixture: Sendable, CustomTestStringConvertible {
        let source: String
        let json: String
        var context = PayloadContext()
        let codes: [LintCode]
        let preview: NotificationPreview?
        var testDescription: String { source }
    }

    typealias Preview = NotificationPreview

    static let fixtures: [Fixture] = [
        // Seed 000 (Push Notifications by Tutorials, ch. 3 "Remote Notification Payload"), "Alert".
        Fixture(
            source: "000 Alert: title and body",
            json: """
                {
                  "aps": {
                    "alert": {
                      "title": "Your food is done.",
                      "body": "Be careful, it's really hot!"
                    }
                  }
                }
                """,
            codes: [],
            preview: Preview(title: "Your food is done.", body: "Be careful, it's really hot!")),
        // Seed 000, "Localization": loc keys with no strings loaded show the keys themselves.
        Fixture(
            source: "000 Localization: loc keys, no strings loaded",
            json: """
                {
                  "aps": {
                    "alert": {
                      "title-loc-key": "FOOD_ORDERED",
                      "loc-key": "FOOD_PICKUP_TIME",
                      "loc-args": ["2018-05-02T19:32:41Z"]
                    }
                  }
                }
                """,
            codes: [],
            preview: Preview(title: "FOOD_ORDERED", body: "FOOD_PICKUP_TIME")),
        // Seed 000, "Localization", with an English table: "You can pick up your order at …".
        Fixture(
            source: "000 Localization: loc keys rendered from English strings",
            json: """
                {
                  "aps": {
                    "alert": {
                      "title-loc-key": "FOOD_ORDERED",
                      "loc-key": "FOOD_PICKUP_TIME",
                      "loc-args": ["2018-05-02T19:32:41Z"]
                    }
                  }
                }
                """,
            context: PayloadContext(strings: PayloadTestSupport.english),
            codes: [],
            preview: Preview(
                title: "Your order is ready", body: "You can pick up your order at 2018-05-02T19:32:41Z.")),
        // Seed 000, "Badge".
        Fixture(
            source: "000 Badge: badge 12",
            json: """
                {
                  "aps": { 
                    "alert": { 
                        "title": "Your food is done.",
                        "body": "Be careful, it's really hot!"
                    },
                    "badge": 12
                  }
                }
                """,
            codes: [],
            preview: Preview(title: "Your food is done.", body: "Be careful, it's really hot!", badge: 12)),
        // Seed 000, "Sound": a custom sound file.
        Fixture(
            source: "000 Sound: filename.caf",
            json: """
                {
                  "aps": { 
                    "alert": { 
                        "title": "Your food is done.",
                        "body": "Be careful, it's really hot!"
                    },
                    "badge": 12,
                    "sound": "filename.caf"
                  }
                }
                """,
            codes: [],
            preview: Preview(
                title: "Your food is done.", body: "Be careful, it's really hot!", badge: 12,
                sound: .init(name: "filename.caf"))),
        // Seed 000, "Critical alert sounds": the sound dictionary.
        Fixture(
            source: "000 Critical alert sounds: sound dictionary",
            json: """
                {
                  "aps": { 
                    "alert": { 
                        "title": "Your food is done.",
                        "body": "Be careful, it's really hot!"
                    },
                    "badge": 12,
                    "sound": {
                      "critical": 1,
                      "name": "filename.caf",
                      "volume": 0.75
                    }
                  }
                }
                """,
            codes: [],
            preview: Preview(
                title: "Your food is done.", body: "Be careful, it's really hot!", badge: 12,
                sound: .init(name: "filename.caf", critical: true, volume: 0.75))),
        // Seed 000, "Your custom data": custom keys outside aps are the app's.
        Fixture(
            source: "000 Your custom data: coords",
            json: """
                {
                  "aps": { 
                    "alert": { 
                      "title": "Save The Princess!"
                    }
                  },
                  "coords": {
                    "latitude": 37.33182, 
                    "longitude": -122.03118
                  }
                }
                """,
            codes: [],
            preview: Preview(title: "Save The Princess!")),

        // Seed 001 (Apple's Payload Key Reference) has no example payload; its Table 9-1 says
        // "The JSON \U notation is not supported": the rule is a row of LintRuleTests.

        // Seed 002 (Apple's "Examples of JSON Payloads", Korean translation), Example 1.
        Fixture(
            source: "002 Example 1: alert string",
            json: """
                {
                    "aps" : { "alert" : "Message received from Bob" },
                    "acme2" : [ "bang",  "whiz" ]
                }
                """,
            codes: [],
            preview: Preview(body: "Message received from Bob")),
        // Seed 002, Example 2: action-loc-key and badge.
        Fixture(
            source: "002 Example 2: action-loc-key PLAY, badge 5",
            json: """
                {
                    "aps" : {
                        "alert" : {
                            "title" : "Game Request",
                            "body" : "Bob wants to play poker",
                            "action-loc-key" : "PLAY"
                        },
                        "badge" : 5
                    },
                    "acme1" : "bar",
                    "acme2" : [ "bang",  "whiz" ]
                }
                """,
            codes: [],
            preview: Preview(title: "Game Request", body: "Bob wants to play poker", badge: 5)),
        // Seed 002, Example 3: alert string, badge, bundled sound.
        Fixture(
            source: "002 Example 3: badge 9, bingbong.aiff",
            json: """
                {
                    "aps" : {
                        "alert" : "You got your emails.",
                        "badge" : 9,
                        "sound" : "bingbong.aiff"
                    },
                    "acme1" : "bar",
                    "acme2" : 42
                }
                """,
            codes: [],
            preview: Preview(body: "You got your emails.", badge: 9, sound: .init(name: "bingbong.aiff"))),
        // Seed 002, Example 4: loc-key and loc-args, no strings loaded.
        Fixture(
            source: "002 Example 4: GAME_PLAY_REQUEST_FORMAT, no strings loaded",
            json: """
                {
                    "aps" : {
                        "alert" : {
                            "loc-key" : "GAME_PLAY_REQUEST_FORMAT",
                            "loc-args" : [ "Jenna", "Frank"]
                        },
                        "sound" : "chime.aiff"
                    },
                    "acme" : "foo"
                }
                """,
            codes: [],
            preview: Preview(body: "GAME_PLAY_REQUEST_FORMAT", sound: .init(name: "chime.aiff"))),
        // Seed 002, Example 4, with English strings.
        Fixture(
            source: "002 Example 4: GAME_PLAY_REQUEST_FORMAT rendered",
            json: """
                {
                    "aps" : {
                        "alert" : {
                            "loc-key" : "GAME_PLAY_REQUEST_FORMAT",
                            "loc-args" : [ "Jenna", "Frank"]
                        },
                        "sound" : "chime.aiff"
                    },
                    "acme" : "foo"
                }
                """,
            context: PayloadContext(strings: PayloadTestSupport.english),
            codes: [],
            preview: Preview(
                body: "Jenna and Frank have invited you to play Monopoly", sound: .init(name: "chime.aiff"))),
        // Seed 002, Example 5 as printed: a comma is missing after "category" and a curly quote
        // opens "chime.aiff", so it is not JSON.
        Fixture(
            source: "002 Example 5 as printed: not JSON",
            json: """
                {
                  "aps" : {
                      "category" : "NEW_MESSAGE_CATEGORY"
                      "alert" : {
                        "body" : "Acme message received from Johnny Appleseed",
                        "action-loc-key" : "VIEW"
                      },
                      "badge" : 3,
                      "sound" : “chime.aiff"
                  },
                  "acme-account" : "jane.appleseed@apple.com",
                  "acme-message" : "message123456"
                }
                """,
            codes: [.payloadNotJSON],
            preview: nil),
        // Seed 002, Example 5 repaired (comma added, straight quote).
        Fixture(
            source: "002 Example 5 repaired: category",
            json: """
                {
                  "aps" : {
                      "category" : "NEW_MESSAGE_CATEGORY",
                      "alert" : {
                        "body" : "Acme message received from Johnny Appleseed",
                        "action-loc-key" : "VIEW"
                      },
                      "badge" : 3,
                      "sound" : "chime.aiff"
                  },
                  "acme-account" : "jane.appleseed@apple.com",
                  "acme-message" : "message123456"
                }
                """,
            codes: [],
            preview: Preview(
                body: "Acme message received from Johnny Appleseed", badge: 3, sound: .init(name: "chime.aiff"),
                category: "NEW_MESSAGE_CATEGORY")),

        // Seed 003 (iOS Push Notifications: Part 3 — Push payload), the simple push, formatted.
        Fixture(
            source: "003 simple push, formatted",
            json: """
                {
                "aps": {
                "alert": "Hello there!"
                }
                }
                """,
            codes: [],
            preview: Preview(body: "Hello there!")),
        // Seed 003, the same compact ("only 32bytes").
        Fixture(
            source: "003 simple push, compact",
            json: #"{"aps":{"alert":"Hello there!"}}"#,
            codes: [],
            preview: Preview(body: "Hello there!")),
        // Seed 003, "Here is more complicated example".
        Fixture(
            source: "003 complicated example: subtitle, relevance-score, interruption-level, category",
            json: """
                {
                "aps": {
                "alert": {
                "title": "Lorem ipsum title",
                "subtitle": "Lorem ipsum subtitle",
                "body": "Lorem ipsum body"
                },
                "badge": 7,
                "sound": "coin.aiff",
                "relevance-score": 0.3,
                "interruption-level": "active",
                "category": "PAY_IN"
                },
                "my_id": "001"
                }
                """,
            codes: [],
            preview: Preview(
                title: "Lorem ipsum title", subtitle: "Lorem ipsum subtitle", body: "Lorem ipsum body", badge: 7,
                sound: .init(name: "coin.aiff"), category: "PAY_IN", interruptionLevel: "active")),
        // Seed 003, "Critical alerts": the sound fragment, put inside aps.
        Fixture(
            source: "003 Critical alerts: sound dictionary fragment inside aps",
            json: """
                {"aps": {
                "sound": {
                "critical": 1,
                "name": "coin.aiff",
                "volume": 1
                }
                }}
                """,
            codes: [],
            preview: Preview(sound: .init(name: "coin.aiff", critical: true, volume: 1))),
        // Seed 003, "Time Sensitive Notifications" calls the level timeSensitive; the payload
        // value is time-sensitive.
        Fixture(
            source: "003 Time Sensitive Notifications: timeSensitive is not a level",
            json: #"{"aps":{"alert":"Payment received","interruption-level":"timeSensitive"}}"#,
            codes: [.interruptionLevelInvalid],
            preview: Preview(body: "Payment received", interruptionLevel: "timeSensitive")),

        // Seed 004 (The iPhone Developer's Cookbook, "Building Notification Payloads"), Table 16-1.
        Fixture(
            source: "004 Table 16-1: hello",
            json: #"{"aps":{"alert":"hello"}}"#,
            codes: [],
            preview: Preview(body: "hello")),
        Fixture(
            source: "004 Table 16-1: hello in an alert dictionary",
            json: #"{"aps":{"alert":{"body":"hello"}}}"#,
            codes: [],
            preview: Preview(body: "hello")),
        Fixture(
            source: "004 Table 16-1: one OK button (action-loc-key null)",
            json: #"{"aps":{"alert":{"action-loc-key":null,"body":"hello"}}}"#,
            codes: [],
            preview: Preview(body: "hello")),
        Fixture(
            source: "004 Table 16-1: custom button Open",
            json: #"{"aps":{"alert":{"action-loc-key":"Open","body":"hello"}}}"#,
            codes: [],
            preview: Preview(body: "hello")),
        Fixture(
            source: "004 Table 16-1: badge 3",
            json: #"{"aps":{"badge":3,"alert":{"body":"hello"}}}"#,
            codes: [],
            preview: Preview(body: "hello", badge: 3)),
        Fixture(
            source: "004 Table 16-1: a sound without an alert",
            json: #"{"aps":{"sound":"ping2.caf","alert":{}}}"#,
            codes: [],
            preview: Preview(sound: .init(name: "ping2.caf"))),
        Fixture(
            source: "004 Table 16-1: sound, badge, alert, custom button",
            json: #"{"aps":{"sound":"ping2.caf","badge":2,"alert":{"action-loc-key":"Open","body":"Hello"}}}"#,
            codes: [],
            preview: Preview(body: "Hello", badge: 2, sound: .init(name: "ping2.caf"))),
        Fixture(
            source: "004 Table 16-1: custom payload with an array",
            json: #"{"aps":{"alert":{"body":"Hello"}},"key1":"value1","key2":["a","b","c"]}"#,
            codes: [],
            preview: Preview(body: "Hello")),
        // Seed 004: "the most basic payload looks something like {aps:{}}": unquoted, not JSON.
        Fixture(
            source: "004 {aps:{}}: unquoted key",
            json: "{aps:{}}",
            codes: [.payloadNotJSON],
            preview: nil),
        // Seed 004, the same written as JSON: an alert push with nothing to show.
        Fixture(
            source: "004 {\"aps\":{}}: nothing to show",
            json: #"{"aps":{}}"#,
            codes: [.alertNothingToShow],
            preview: Preview()),
    ]

    @Test("Findings and preview", arguments: fixtures)
    func fixture(_ fixture: Fixture) {
        let analysis = PayloadTestSupport.analyze(fixture.json, fixture.context)
        #expect(analysis.findings.map(\.code) == fixture.codes, "\(analysis.findings)")
        #expect(analysis.preview == fixture.preview)
        #expect(analysis.byteCount == fixture.json.utf8.count)
        #expect(analysis.limit == 4096)
        #expect(analysis.bytesRemaining == 4096 - fixture.json.utf8.count)
    }

    @Test("Seed 003's compact push is 32 bytes")
    func compactSize() {
        let analysis = PayloadTestSupport.analyze(#"{"aps":{"alert":"Hello there!"}}"#)
        #expect(analysis.byteCount == 32)
        #expect(analysis.bytesRemaining == 4064)
    }

    @Test("Seed 004's 256-byte limit of the first binary interface, as a --payload-limit override")
    func legacyLimit() {
        let context = PayloadContext(payloadLimit: 256)
        let near = PayloadTestSupport.analyze(PayloadTestSupport.payload(bytes: 250), context)
        #expect(near.findings.map(\.code) == [.payloadNearLimit])
        #expect(near.bytesRemaining == 6)
        let over = PayloadTestSupport.analyze(PayloadTestSupport.payload(bytes: 300), context)
        #expect(over.findings.map(\.code) == [.payloadTooLarge])
        #expect(over.bytesRemaining == -44)
        #expect(over.preview?.body == String(repeating: "x", count: 280))
    }
}
