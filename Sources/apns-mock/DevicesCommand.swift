import APNSMockAdmin
import APNSMockCore
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock devices put FILE`: many devices in one call (`POST /v1/devices`).
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Register or replace many devices in one call (POST /v1/devices).",
        subcommands: [Put.self])

    /// `apns-mock devices put devices.json`.
    struct Put: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register or replace the devices of a JSON file in one call.",
            discussion: """
                The file holds {"devices": [{"token": "…", "presence": "offline"}, …]} or the list \
                alone; each entry is a PUT /v1/devices/{token} body with its token. One bad entry \
                refuses them all, and the message names it (devices[3].presence …). Prints how many \
                were created and replaced.
                """)

        @Argument(help: ArgumentHelp("The JSON file; - reads standard input.", valueName: "file"))
        var file: String
        @OptionGroup var options: AdminOptions

        func run() throws {
            let path = file == "-" ? "/dev/stdin" : file
            guard let data = FileManager.default.contents(atPath: path) else {
                fail(2, "apns-mock devices put: cannot read '\(file)'")
            }
            var body = Array(data)
            // A bare list is the devices.
            let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
            if body.first(where: { !whitespace.contains($0) }) == UInt8(ascii: "[") {
                body = Array(#"{"devices":"#.utf8) + body + Array("}".utf8)
            }
            let response = options.call("devices put", .putDevices, body: body)
            if options.json { return AdminOptions.printJSON(response) }
            let answer = JSONValue.parse(response.body)
            let created = answer?["created"]?.scalarText ?? "?"
            let replaced = answer?["replaced"]?.scalarText ?? "?"
            print("\(answer?["count"]?.scalarText ?? "?") devices: \(created) created, \(replaced) replaced")
        }
    }
}
