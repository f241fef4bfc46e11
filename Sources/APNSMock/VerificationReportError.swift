import APNSMockCore

/// An answer `apns-mock verify` cannot read.
public struct VerificationReportError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
