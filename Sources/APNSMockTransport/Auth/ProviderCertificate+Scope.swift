import APNSMockCore
import APNSMockRegistry
import APNSMockStore

extension ProviderCertificate {
    /// The environments the certificate may push to; a certificate that names none is
    /// treated as valid in both.
    public var environmentScope: EnvironmentScope {
        switch environment {
        case .sandbox: return .sandbox
        case .production: return .production
        case .both, .unspecified: return .both
        }
    }
}
