import APNSMockCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a PEM text is not the key or certificate a command wanted, in words (never a library's
/// error case name such as `invalidPEMDocument`).
public enum PEMProblem {
    /// The PEM labels of an EC P-256 private key: a `.p8` file's, or OpenSSL's traditional form.
    public static let privateKeyLabels = ["PRIVATE KEY", "EC PRIVATE KEY"]

    /// "is not PEM: it has no '-----BEGIN …-----' line; …", "holds a CERTIFICATE, not an EC P-256
    /// private key (.p8)", or "holds a PRIVATE KEY that is not …" for a block of the right kind
    /// that does not parse (another algorithm or curve, or damaged base64).
    /// - Parameters:
    ///   - wanted: what was expected, in words ("an EC P-256 private key (.p8)").
    ///   - labels: the PEM labels (`-----BEGIN <label>-----`) of what was expected.
    public static func describe(_ text: String, expecting wanted: String, labels: [String]) -> String {
        let found = text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            let line = line.trimmingWhitespace(newlines: false)
            guard line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") else { return nil }
            return String(line.dropFirst("-----BEGIN ".count).dropLast(5))
        }
        guard let label = found.first else {
            return "is not PEM: it has no '-----BEGIN …-----' line; \(wanted) was expected"
        }
        guard labels.contains(label) else { return "holds a \(label), not \(wanted)" }
        return "holds a \(label) that is not \(wanted) (another algorithm or curve, or damaged base64)"
    }
}
