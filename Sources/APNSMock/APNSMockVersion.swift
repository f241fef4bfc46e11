/// This release of apns-mock: `apns-mock --version` prints it, and it is the git tag a package
/// depending on apns-mock names (`.package(url: …, from: "0.9.0")`).
public enum APNSMockVersion {
    public static let current = "0.9.0"
}
