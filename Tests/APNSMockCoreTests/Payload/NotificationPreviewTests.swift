import APNSMockCore
import Testing

/// `NotificationPreview`: what the analyzer says a device shows, and its JSON.
@Suite("NotificationPreview")
struct NotificationPreviewTests {
    static func preview(_ json: String, strings: LocalizedStrings? = nil) -> NotificationPreview? {
        PayloadTestSupport.analyze(json, PayloadContext(strings: strings)).preview
    }

    static func text(_ preview: NotificationPreview) -> String {
        var writer = JSONWriter()
        preview.write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test("Every part, in the documented order")
    func full() throws {
        let json = """
            {"aps":{"interruption-level":"time-sensitive","thread-id":"chat-7","category":"MESSAGE",
            "sound":{"critical":1,"name":"alarm.caf","volume":0.5},"badge":4,
            "alert":{"body":"B","subtitle":"S","title":"T"}}}
            """
        let preview = try #require(Self.preview(json))
        #expect(
            Self.text(preview)
                == #"{"title":"T","subtitle":"S","body":"B","badge":4,"sound":{"name":"alarm.caf","critical":true,"volume":0.5},"#
                + #""category":"MESSAGE","threadId":"chat-7","interruptionLevel":"time-sensitive","silent":false}"#)
        #expect(preview.jsonValue == JSONValue.parse(Self.text(preview)))
    }

    @Test("Absent parts are left out; silent is always there")
    func minimal() throws {
        let silent = try #require(Self.preview(#"{"aps":{"content-available":1}}"#))
        #expect(Self.text(silent) == #"{"silent":true}"#)
        #expect(silent.silent)
        #expect(silent.jsonValue == ["silent": true])
        let sound = try #require(Self.preview(#"{"aps":{"sound":"default"}}"#))
        #expect(Self.text(sound) == #"{"sound":{"name":"default","critical":false},"silent":false}"#)
        let namelessSound = try #require(Self.preview(#"{"aps":{"sound":{"critical":1}}}"#))
        #expect(Self.text(namelessSound) == #"{"sound":{"critical":true},"silent":false}"#)
    }

    @Test("Silent means no text, no sound and no badge")
    func silent() {
        #expect(Self.preview(#"{"aps":{}}"#)?.silent == true)
        #expect(Self.preview(#"{"data":1}"#)?.silent == true)
        #expect(Self.preview(#"{"aps":{"alert":"","category":"C","thread-id":"t"}}"#)?.silent == true)
        #expect(Self.preview(#"{"aps":{"alert":{"title":"T"}}}"#)?.silent == false)
        #expect(Self.preview(#"{"aps":{"badge":0}}"#)?.silent == false)
        #expect(Self.preview(#"{"aps":{"sound":""}}"#)?.silent == false)
        #expect(Self.preview(#"{"aps":{"badge":"3"}}"#)?.silent == true)
    }

    @Test("Values of the wrong type are left out of the preview")
    func wrongTypes() {
        let preview = Self.preview(
            #"{"aps":{"alert":{"title":1,"body":["b"]},"badge":2.5,"sound":7,"category":1,"thread-id":{},"interruption-level":5}}"#
        )
        #expect(preview == NotificationPreview())
        #expect(Self.preview(#"{"aps":{"sound":{"name":3,"critical":"1","volume":"0.5"}}}"#)?.sound == .init(name: nil))
        #expect(Self.preview(#"{"aps":{"alert":7}}"#)?.body == nil)
        #expect(Self.preview(#"{"aps":"hello"}"#) == NotificationPreview())
    }

    @Test("A negative integer badge is shown as sent (and linted)")
    func negativeBadge() {
        #expect(Self.preview(#"{"aps":{"badge":-2}}"#)?.badge == -2)
    }

    @Test("loc keys take the place of title, subtitle and body")
    func locKeysWin() {
        let json =
            #"{"aps":{"alert":{"title":"plain title","title-loc-key":"INVITE_TITLE","title-loc-args":["Ann"],"#
            + #""subtitle":"plain subtitle","subtitle-loc-key":"NO_ARGS","body":"plain body","loc-key":"SWAPPED","#
            + #""loc-args":["Ann","Bob"]}}}"#
        let localized = Self.preview(json, strings: PayloadTestSupport.english)
        #expect(localized?.title == "Invitation from Ann")
        #expect(localized?.subtitle == "Welcome back")
        #expect(localized?.body == "Bob replied to Ann")
        let unlocalized = Self.preview(json)
        #expect(unlocalized?.title == "INVITE_TITLE")
        #expect(unlocalized?.subtitle == "NO_ARGS")
        #expect(unlocalized?.body == "SWAPPED")
        let nullKey = Self.preview(#"{"aps":{"alert":{"title":"plain","title-loc-key":null}}}"#)
        #expect(nullKey?.title == "plain")
    }

    @Test("A volume that is not a finite number is left out")
    func volume() {
        #expect(Self.preview(#"{"aps":{"sound":{"name":"a","volume":1e999}}}"#)?.sound?.volume == nil)
        #expect(Self.preview(#"{"aps":{"sound":{"name":"a","volume":1}}}"#)?.sound?.volume == 1)
        var preview = NotificationPreview(sound: .init(name: "a", volume: .infinity))
        preview.silent = false
        #expect(Self.text(preview) == #"{"sound":{"name":"a","critical":false},"silent":false}"#)
    }
}
