/// Why a PEM file is not the key or certificate a command wanted, in words (never a library's
/// error case name such as `invalidPEMDocument`).
enum PEMProblem {
    /// "is not PEM: it has no '-----BEGIN' line" / "holds a CERTIFICATE, not an EC P-256 private key (.p8)" / …
    static func describe(_ text: String, expecting wanted: String) -> String {
        let labels = text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            guard line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") else { return nil }
            return String(line.dropFirst("-----BEGIN ".count).dropLast(5))
        }
        guard let label = labels.first else {
            return "is not PEM: it has no '-----BEGIN …-----' line; \(wanted) was expected"
        }
        guard label.contains("PRIVATE KEY") else { return "holds a \(label), not \(wanted)" }
        if label == "RSA PRIVATE KEY" { return "holds an RSA private key, not \(wanted)" }
        return "holds a \(label) that is not \(wanted) (or its base64 is damaged)"
    }
}
