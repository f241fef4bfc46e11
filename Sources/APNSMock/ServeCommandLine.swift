import APNSMockCore
import APNSMockRegistry

/// `apns-mock serve`'s arguments, read over ``ServeSetting/all``: every declared setting is a
/// flag (`--port 0`, `--port=0`), a switch (`--strict-payload`, `--no-strict-payload`), or a
/// list (`--port` repeated, `--expectations a.yaml b.yaml`); the last of a flag given twice wins.
public enum ServeCommandLine: Sendable {
    /// What the arguments ask for.
    public enum Request: Sendable {
        case serve(ServeSettingLayer)
        case help
        case version
    }

    /// The abstract `serve --help` and `apns-mock --help` show.
    public static let abstract = "Serve the APNs provider API (HTTP/2 over TLS) and the admin API."
    /// What `serve --help` says under the abstract.
    public static let discussion = """
        Flags override the environment, which overrides the --config file, which overrides the built-in defaults. \
        See apns-mock.example.yaml for every setting and the setup: section (keys and devices).
        """

    /// Reads `arguments` (those after `serve`); relative paths resolve against `baseDirectory`
    /// when given (`ServeSetting.baseDirectoryVariable`), else against the working directory.
    /// - Throws: `SpecError` whose description is one line: `Unknown option '--bogus'`,
    ///   `--port must be 0–65535; got 70000`.
    public static func parse(_ arguments: [String], baseDirectory: String? = nil) throws(SpecError) -> Request {
        var given: [(setting: ServeSetting, value: SpecValue)] = []
        var lists: [String: [SpecValue]] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return .help }
            if argument == "--version" { return .version }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw SpecError(path: "", problem: "Unexpected argument '\(argument)'")
            }
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if let setting = ServeSetting.all.first(where: { $0.flag == name }) {
                if setting.isSwitch {
                    guard inline == nil else { throw SpecError(path: "--" + name, problem: "takes no value") }
                    given.append((setting, .bool(true)))
                    continue
                }
                var values: [String] = []
                if let inline {
                    values.append(inline)
                } else {
                    guard index < arguments.count, !isOption(arguments[index]) else {
                        throw SpecError(
                            path: "",
                            problem: "Missing value for '--\(setting.flag) <\(setting.valueName ?? setting.flag)>'")
                    }
                    values.append(arguments[index])
                    index += 1
                    while setting.takesSeveralValues, index < arguments.count, !arguments[index].hasPrefix("-") {
                        values.append(arguments[index])
                        index += 1
                    }
                }
                if setting.repeatable {
                    lists[setting.flag, default: []] += values.map { .plain($0) }
                    given.append((setting, .array(lists[setting.flag] ?? [])))
                } else {
                    given.append((setting, .plain(values[0])))
                }
            } else if name.hasPrefix("no-"), inline == nil,
                let setting = ServeSetting.all.first(where: { $0.negatable && $0.flag == name.dropFirst(3) })
            {
                given.append((setting, .bool(false)))
            } else {
                let flags = ServeSetting.all.flatMap { $0.negatable ? [$0.flag, "no-" + $0.flag] : [$0.flag] }
                let suggestion = NameSuggestion.didYouMean(name, among: flags)
                    .replacing("did you mean '", with: "did you mean '--")
                throw SpecError(path: "", problem: "Unknown option '--\(name)'\(suggestion)")
            }
        }
        return .serve(try ServeSettingLayer(.commandLine, given: given, baseDirectory: baseDirectory))
    }

    /// Whether `argument` is a flag rather than a value (`-1` is a value).
    private static func isOption(_ argument: String) -> Bool {
        argument.hasPrefix("--") || argument == "-h"
    }

    /// `--port <port>`, `--strict-payload/--no-strict-payload`, `--expectations <file-or-dir> ...`.
    static func label(_ setting: ServeSetting) -> String {
        if setting.isSwitch {
            return setting.negatable ? "--\(setting.flag)/--no-\(setting.flag)" : "--\(setting.flag)"
        }
        let value = "--\(setting.flag) <\(setting.valueName ?? setting.flag)>"
        return setting.repeatable ? value + " ..." : value
    }

    /// `serve --help`: the abstract, then every declared setting with its help, wrapped to
    /// `columns`.
    public static func help(columns: Int = 80) -> String {
        let labelWidth = 24
        let textWidth = max(columns - labelWidth - 2, 20)
        var lines = [
            "OVERVIEW: \(abstract)", "", wrap(discussion, width: columns).joined(separator: "\n"), "",
            "USAGE: apns-mock serve [<option> ...]", "", "OPTIONS:",
        ]
        let options =
            ServeSetting.all.map { (label($0), $0.help) } + [
                ("--version", "Show the version."), ("-h, --help", "Show help information."),
            ]
        let indent = String(repeating: " ", count: labelWidth + 2)
        for (label, help) in options {
            let text = wrap(help, width: textWidth)
            if label.count + 2 > labelWidth {
                lines.append("  " + label)
                lines += text.map { indent + $0 }
            } else {
                let padding = String(repeating: " ", count: labelWidth - label.count)
                lines.append("  " + label + padding + text[0])
                lines += text.dropFirst().map { indent + $0 }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` in lines of at most `width` characters, broken at spaces.
    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        lines.append(line)
        return lines
    }
}
