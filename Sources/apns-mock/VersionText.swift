import APNSMock
import CAPNSMockBuildInfo

/// What `apns-mock --version` prints: the release, then the commit it was built from
/// (`0.9.0 (commit 9e218bc0a1b2)`), so a binary taken from a wheel, an npm package, a jar or an
/// image says exactly which source it is.
enum VersionText {
    static let line = "\(APNSMockVersion.current) (commit \(String(cString: apnsmock_build_commit())))"
}
