import APNSMockRegistry

extension FuzzTarget {
    /// A configuration file (`serve --config`), YAML through Yams into `ConfigurationDocument`.
    static let configuration = FuzzTarget(
        name: "configuration",
        summary: "a configuration YAML file -> ConfigurationDocument.parse",
        maximumLength: 4096
    ) { bytes in
        guard let text = yamlText(bytes) else { return }
        do throws(ConfigurationFileError) {
            _ = try ConfigurationDocument.parse(
                yaml: text, file: "fuzz.yaml", baseDirectory: missingDirectory, now: FuzzFixtures.now)
        } catch {
            _ = error.description
        }
    }

    /// An expectation file (`verify`): setup and expectations, YAML through Yams.
    static let expectations = FuzzTarget(
        name: "expectations",
        summary: "an expectation YAML file -> ExpectationFile.parse",
        maximumLength: 4096
    ) { bytes in
        guard let text = yamlText(bytes) else { return }
        do throws(ExpectationFileError) {
            _ = try ExpectationFile.parse(
                yaml: text, file: "fuzz.yaml", baseDirectory: missingDirectory, now: FuzzFixtures.now)
        } catch {
            _ = error.description
        }
    }

    /// Relative paths in a document resolve under this directory, which does not exist.
    private static let missingDirectory = "/nonexistent/apns-mock-fuzz"

    /// The input as text, or `nil` for one the targets leave alone: one naming a key file
    /// (`publicKeyFile`, `privateKeyFile`), which the parser reads, so that an input that
    /// names `/dev/zero` is not mistaken for a bug.
    private static func yamlText(_ bytes: [UInt8]) -> String? {
        let text = FuzzInput.text(bytes)
        return text.contains("File") ? nil : text
    }
}
