#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The credentials `apns-mock serve` uses when it is given no certificate files and finds none in
/// `./certs`: a development CA and a server certificate (``DevCertificates``), generated once per
/// user into a state directory and reused by every later start, so that a client trusts one CA
/// for good. Generated on this machine, never carried in the binary: a CA whose private key
/// shipped in every copy would let anyone who has the binary impersonate any host to a client
/// that trusts it.
public enum DevelopmentCredentials {
    /// The files, by path.
    public struct Paths: Sendable, Equatable {
        public var directory: String
        public var caCertificate: String { directory + "/ca.pem" }
        public var serverCertificate: String { directory + "/server.pem" }
        public var serverPrivateKey: String { directory + "/server-key.pem" }
    }

    /// Where they live: `$XDG_STATE_HOME/apns-mock/credentials`, else
    /// `$HOME/.local/state/apns-mock/credentials`, else `<temporary directory>/apns-mock-<uid>/credentials`.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let state: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            state = xdg + "/apns-mock"
        } else if let home = environment["HOME"], home.hasPrefix("/"), home != "/" {
            state = home + "/.local/state/apns-mock"
        } else {
            state =
                (environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp") + "/apns-mock-\(getuid())"
        }
        return state + "/credentials"
    }

    /// The credentials in `directory`, generated there first when they are missing.
    /// Safe when several processes start at once: each generates into a directory of its own
    /// and renames it into place; the first rename wins and the others use its files.
    /// - Returns: the paths, and whether this call generated them.
    public static func ensure(in directory: String = directory(), now: Date = Date()) throws -> (
        paths: Paths, generated: Bool
    ) {
        let paths = Paths(directory: directory)
        let manager = FileManager.default
        if manager.fileExists(atPath: paths.serverPrivateKey) { return (paths, false) }
        let parent = URL(fileURLWithPath: directory).deletingLastPathComponent().path
        try manager.createDirectory(
            atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let scratch = parent + "/.credentials-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try DevCertificates.write(try DevCertificates.generate(now: now), to: scratch)
        if rename(scratch, directory) != 0 {
            // Another process won the race (or a half-written directory is in the way).
            try? manager.removeItem(atPath: scratch)
            guard manager.fileExists(atPath: paths.serverPrivateKey) else {
                throw CocoaError(.fileWriteUnknown, userInfo: ["NSFilePath": directory])
            }
            return (paths, false)
        }
        return (paths, true)
    }
}
