import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The README and the pages of `docs/` are true as written: every ```` ```sh ```` block runs, and
/// prints what the page says it prints.
///
/// Conventions (docs/CONTRIBUTING.md, "The README and docs are tested", says the same to its writers):
/// - Every ```` ```sh ```` block of `README.md` and `docs/*.md` runs, in order, in one bash per
///   file (`set -euo pipefail`), from the repository root, against an `apns-mock serve` started
///   on free ports as `make run` starts it (the defaults otherwise). A block may use what an
///   earlier block of its file set up; most set every variable they use.
/// - Only what cannot be the same is rewritten: the default ports (`2197`, `2195`, `2198` after
///   `localhost:` or `127.0.0.1:`) become the started mock's, and `.build/debug/apns-mock` the
///   binary under test. No other default port may be left in a block that runs.
/// - A comment line `# => text` is expected output: it must match a whole line the block prints
///   on stdout (trailing spaces and carriage returns ignored; `…` stands for any text), the
///   expectations of a block in the order written.
/// - A block preceded by the line `<!-- not run: why -->` is shown only; the reason is
///   required. Other fences (`yaml`, `swift`, plain) never run; ```` ```bash ````,
///   ```` ```shell ```` and ```` ```console ```` fences are refused, so that no shell example
///   escapes this test.
/// - A block that starts its own server (`serve --port 0 … &`) stops it itself; the script also
///   kills any job still running when bash exits.
@Suite(.serialized) struct ReadmeExamplesTests {
    /// One fenced code block of a Markdown page.
    struct Block: Equatable {
        /// The page, relative to the repository root.
        var file: String
        /// The 1-based line of the opening fence.
        var line: Int
        /// The fence's info string (`sh`, `yaml`, …).
        var info: String
        var code: String
        /// The reason given by a `<!-- not run: … -->` line right above the fence.
        var notRunReason: String?

        var runs: Bool { info == "sh" && notRunReason == nil }
        var location: String { "\(file):\(line)" }

        /// The `# => ` lines of the block, in order.
        var expectations: [String] {
            code.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return trimmed.hasPrefix("# => ") ? String(trimmed.dropFirst("# => ".count)) : nil
            }
        }
    }

    /// The pages whose shell blocks run: the README, then `docs/*.md` by name.
    static let pages: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: E2E.repositoryRoot + "/docs")) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    /// The tools the blocks call besides bash's own.
    static let tools = ["bash", "curl", "python3", "sed", "grep"]
    static let toolsPresent = tools.allSatisfy { E2E.which($0) != nil }

    static let notRunPrefix = "<!-- not run:"

    /// The fenced blocks of `markdown` (the page `file`), in order.
    static func blocks(in markdown: String, file: String) -> [Block] {
        let lines = markdown.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let opening = lines[index].trimmingCharacters(in: .whitespaces)
            guard opening.hasPrefix("```") else {
                index += 1
                continue
            }
            let indent = lines[index].prefix { $0 == " " }.count
            let info = String(opening.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            var body: [String] = []
            var end = index + 1
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(String(lines[end].dropFirst(min(indent, lines[end].prefix { $0 == " " }.count))))
                end += 1
            }
            var reason: String?
            if index > 0 {
                let above = lines[index - 1].trimmingCharacters(in: .whitespaces)
                if above.hasPrefix(notRunPrefix), above.hasSuffix("-->") {
                    reason = String(above.dropFirst(notRunPrefix.count).dropLast(3))
                        .trimmingCharacters(in: .whitespaces)
                }
            }
            blocks.append(
                Block(
                    file: file, line: index + 1, info: info, code: body.joined(separator: "\n"),
                    notRunReason: reason))
            index = end + 1
        }
        return blocks
    }

    static func blocks(ofPage page: String) throws -> [Block] {
        blocks(in: try String(contentsOfFile: E2E.repositoryRoot + "/" + page, encoding: .utf8), file: page)
    }

    /// Whether `line` (trailing whitespace ignored) is what `pattern` says, `…` standing for
    /// any text.
    static func line(_ line: String, matches pattern: String) -> Bool {
        var rest = Substring(line.replacingOccurrences(of: "\r", with: ""))
        while let last = rest.last, last.isWhitespace { rest.removeLast() }
        let parts = pattern.components(separatedBy: "…")
        guard parts.count > 1 else { return rest == Substring(pattern) }
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        let tail = parts[parts.count - 1]
        return rest.count >= tail.count && rest.hasSuffix(tail)
    }

    /// The expectations of `block` that `output` (what the block printed) does not meet, each
    /// matched after the line the one before it matched.
    static func unmet(_ expectations: [String], in output: String) -> [String] {
        // "\r\n" is one Character: split on it too (curl -i prints header lines so).
        let lines = output.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map(String.init)
        var next = 0
        var unmet: [String] = []
        for expectation in expectations {
            if let found = lines[next...].firstIndex(where: { line($0, matches: expectation) }) {
                next = found + 1
            } else {
                unmet.append(expectation)
            }
        }
        return unmet
    }

    struct Ports {
        var apns: Int
        var channels: Int
        var admin: Int
    }

    /// `code` as it runs against the mock on `ports`, with `executable` for the built binary.
    static func rewrite(_ code: String, ports: Ports, executable: String) -> String {
        code.replacing(#/(localhost|127\.0\.0\.1):(2197|2195|2198)\b/#) { match in
            let port =
                switch match.output.2 {
                case "2197": ports.apns
                case "2195": ports.channels
                default: ports.admin
                }
            return "\(match.output.1):\(port)"
        }
        .replacingOccurrences(of: ".build/debug/apns-mock", with: executable)
    }

    static func marker(_ index: Int) -> String { "@@readme-block \(index)@@" }

    /// One bash script for the blocks of a page: each block after a marker line, so that its
    /// output can be told from the others'.
    static func script(_ blocks: [Block], ports: Ports, executable: String) -> String {
        var script =
            "set -euo pipefail\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\ntrap 'exit 143' TERM\n"
        for (index, block) in blocks.enumerated() {
            script += "printf '\\n%s\\n' '\(marker(index))'\n"
            script += rewrite(block.code, ports: ports, executable: executable) + "\n"
        }
        return script + "printf '\\n%s\\n' '\(marker(blocks.count))'\n"
    }

    /// What block `index` printed, from the script's stdout.
    static func output(ofBlock index: Int, in stdout: String) -> String? {
        guard let start = stdout.range(of: marker(index) + "\n") else { return nil }
        let rest = stdout[start.upperBound...]
        guard let end = rest.range(of: "\n" + marker(index + 1)) else { return String(rest) }
        return String(rest[..<end.lowerBound])
    }

    // MARK: the pages' conventions (no server)

    @Test func theConventionsHold() throws {
        var readmeShownOnly = 0
        for page in Self.pages {
            for block in try Self.blocks(ofPage: page) {
                #expect(
                    !["bash", "shell", "console", "zsh"].contains(block.info),
                    "\(block.location): write ```sh (it runs) or mark it `<!-- not run: why -->`")
                if let reason = block.notRunReason {
                    #expect(!reason.isEmpty, "\(block.location): say why the block does not run")
                    #expect(block.info == "sh", "\(block.location): only ```sh blocks run; nothing to mark")
                    if page == "README.md" { readmeShownOnly += 1 }
                }
                if block.runs {
                    let rewritten = Self.rewrite(
                        block.code, ports: Ports(apns: 1, channels: 2, admin: 3), executable: "apns-mock")
                    #expect(
                        rewritten.firstMatch(of: #/\b(2197|2195|2198)\b/#) == nil,
                        "\(block.location): a default port the test cannot rewrite (write localhost:PORT or 127.0.0.1:PORT)"
                    )
                }
            }
        }
        let readme = try Self.blocks(ofPage: "README.md")
        // Eight since the README was cut to what users need first (issues 29 and 38: the binary-alone run
        // moved to docs/COMMAND-LINE.md); the rest run in docs/.
        #expect(readme.filter(\.runs).count >= 8, "the README's examples run")
        #expect(readmeShownOnly <= 3, "few README blocks are shown only")
    }

    /// A Python block of the README is code `make test` runs: it appears, as written, in one of
    /// the example test files (clients/python/examples, examples/python), which run against the
    /// mock in `make test-clients` and `make test-examples`.
    @Test func theReadmesPythonIsCodeThatRuns() throws {
        let directories = ["clients/python/examples", "examples/python"]
        var sources: [String: String] = [:]
        for directory in directories {
            let path = E2E.repositoryRoot + "/" + directory
            for name in try FileManager.default.contentsOfDirectory(atPath: path) where name.hasSuffix(".py") {
                sources[directory + "/" + name] = try String(contentsOfFile: path + "/" + name, encoding: .utf8)
            }
        }
        let python = try Self.blocks(ofPage: "README.md").filter { $0.info == "python" }
        #expect(!python.isEmpty)
        for block in python {
            #expect(
                sources.values.contains { $0.contains(block.code) },
                "\(block.location): not found as written in \(directories.joined(separator: " or ")); copy it from the file that runs"
            )
        }
    }

    @Test func expectedOutputMatchesWholeLinesWithEllipses() {
        #expect(Self.line("HTTP/2 200 \r", matches: "HTTP/2 200"))
        #expect(!Self.line("HTTP/2 2000", matches: "HTTP/2 200"))
        #expect(Self.line("apns-id: 5E8B3F0A-1D3A", matches: "apns-id: …"))
        #expect(!Self.line("apns-id: ", matches: "apns-id: …x"))
        #expect(Self.line(#"{"a":1,"b":{"c":2},"d":3}"#, matches: #"{"a":1,…"c":2…}"#))
        #expect(!Self.line(#"{"a":1,"d":3}"#, matches: #"{"a":1,…"c":2…}"#))
        #expect(Self.line("ab", matches: "a…b"))
        #expect(!Self.line("a", matches: "a…a"))
        #expect(Self.unmet(["one", "two"], in: "one\ntwo\n") == [])
        #expect(Self.unmet(["two", "one"], in: "one\ntwo\n") == ["one"])
        #expect(Self.unmet(["HTTP/2 200", "apns-id: …", "{}"], in: "HTTP/2 200 \r\napns-id: A\r\n\r\n{}\n") == [])
    }

    @Test func blocksAndTheirMarksAreRead() {
        let page = """
            Text.

            <!-- not run: needs a Mac -->
            ```sh
            xcrun simctl push booted x.apns
            ```

            ```sh
            curl -s http://127.0.0.1:2198/health
            # => {"status":"ok"}
            ```
              ```yaml
              a: 1
              ```
            """
        let blocks = Self.blocks(in: page, file: "page.md")
        #expect(blocks.map(\.line) == [4, 8, 12])
        #expect(blocks.map(\.runs) == [false, true, false])
        #expect(blocks[0].notRunReason == "needs a Mac")
        #expect(blocks[1].expectations == [#"{"status":"ok"}"#])
        #expect(blocks[2].code == "a: 1")
        #expect(
            Self.rewrite(blocks[1].code, ports: Ports(apns: 1, channels: 2, admin: 30), executable: "x")
                == "curl -s http://127.0.0.1:30/health\n# => {\"status\":\"ok\"}")
    }

    // MARK: running them

    @Test(
        .enabled(if: Self.toolsPresent || E2E.clientsRequired, "curl or python3 is not installed"),
        arguments: Self.pages)
    func theShellBlocksRunAsWritten(_ page: String) async throws {
        for tool in Self.tools {
            try #require(E2E.which(tool) != nil, "\(tool) is not installed (make test installs it)")
        }
        let blocks = try Self.blocks(ofPage: page).filter(\.runs)
        guard !blocks.isEmpty else { return }
        // docs/CLIENTS.md runs the end-to-end clients: node, and the Python `make test` installs them in
        // (`$APNS_MOCK_PYTHON`). Without them the page is skipped, as those clients' own tests are.
        let code = blocks.map(\.code).joined(separator: "\n")
        let needsNode = code.contains("node - <<")
        let needsPython = code.contains("APNS_MOCK_PYTHON")
        if (needsNode && E2E.which("node") == nil)
            || (needsPython && ProcessInfo.processInfo.environment["APNS_MOCK_PYTHON"] == nil)
        {
            try #require(!E2E.clientsRequired, "\(page) needs node and APNS_MOCK_PYTHON (make test has both)")
            return
        }
        // The server `make run` starts, on free ports.
        let (ready, process) = try await ConfigurationFileTests.serve(
            ["--port", "0", "--admin-port", "0"], in: E2E.repositoryRoot)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let line = try #require(ready, "apns-mock serve printed no ready line")
        let pattern =
            #/^apns-mock ready apns=https://127\.0\.0\.1:(\d+) admin=http://127\.0\.0\.1:(\d+) channels=https://127\.0\.0\.1:(\d+) webpush=https://127\.0\.0\.1:\d+\n$/#
        let match = try #require(line.wholeMatch(of: pattern), "ready line: \(line)")
        let ports = Ports(
            apns: Int(match.output.1) ?? 0, channels: Int(match.output.3) ?? 0, admin: Int(match.output.2) ?? 0)
        let script = Self.script(blocks, ports: ports, executable: CLITests.executable)
        let result = try await E2E.run(
            "bash", ["-c", "cd \"$0\" && " + script, E2E.repositoryRoot], timeout: 180)
        try await ConfigurationFileTests.stop(process)

        for (index, block) in blocks.enumerated() {
            guard let output = Self.output(ofBlock: index, in: result.stdout) else {
                Issue.record("\(block.location): the block did not run (an earlier block failed)")
                break
            }
            let finished = result.stdout.contains(Self.marker(index + 1))
            if !finished {
                Issue.record(
                    "\(block.location): the block failed (exit \(result.status))\n--- stdout\n\(output)\n--- stderr\n\(result.stderr)"
                )
                break
            }
            let unmet = Self.unmet(block.expectations, in: output)
            #expect(
                unmet.isEmpty,
                "\(block.location): printed no line matching \(unmet.map { "'# => \($0)'" }.joined(separator: ", "))\n--- it printed\n\(output)"
            )
        }
        #expect(result.status == 0, "\(page): bash exited \(result.status)\n\(result.stderr)")
    }
}
