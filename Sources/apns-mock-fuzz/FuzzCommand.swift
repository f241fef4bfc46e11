import APNSMockFuzzTargets
import Foundation

// Built in the Makefile's instrumented tree with `-D APNS_MOCK_FUZZING` (make fuzz), this is a
// libFuzzer binary: its `main` runs libFuzzer's driver, which calls `LLVMFuzzerInitialize` once and
// `LLVMFuzzerTestOneInput` for every input, and the target is the one `APNS_MOCK_FUZZ_TARGET` names
// (`APNS_MOCK_FUZZ_TARGET=list` prints them all). Built normally, it is a small tool that
// replays files through a target without libFuzzer.

#if APNS_MOCK_FUZZING
    /// libFuzzer's driver (libclang_rt.fuzzer_no_main, linked in only by the Makefile's instrumented
    /// tree): runs the fuzzing loop over `callback` with the command line's libFuzzer flags.
    @_extern(c, "LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// libFuzzer's loop, started by this binary's own `main` (libFuzzer without its `main`, so
    /// that SwiftPM's test build, which links every executable's entry point by name, links this one).
    @main
    struct FuzzMain {
        static func main() {
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv) { data, size in fuzzerTestOneInput(data, size) })
        }
    }
    /// The target `APNS_MOCK_FUZZ_TARGET` names.
    private let selectedTarget: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["APNS_MOCK_FUZZ_TARGET"] ?? ""
        if name == "list" {
            for target in FuzzTarget.all { print("\(target.name)\t\(target.maximumLength)\t\(target.summary)") }
            exit(0)
        }
        guard let target = FuzzTarget.named(name) else {
            let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
            FileHandle.standardError.write(Data("set APNS_MOCK_FUZZ_TARGET to one of: \(names) (or list)\n".utf8))
            exit(2)
        }
        return target
    }()

    /// Picks the target before the first input, so that a wrong name stops at once.
    @_cdecl("LLVMFuzzerInitialize")
    public func fuzzerInitialize(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
    ) -> Int32 {
        _ = selectedTarget.name
        return 0
    }

    /// One input, through the selected target.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        selectedTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }
#else
    /// `apns-mock-fuzz`, built without libFuzzer:
    ///
    ///     apns-mock-fuzz list                      the targets: name, max_len, what they take
    ///     apns-mock-fuzz replay TARGET PATH...     runs files (or every file under directories)
    ///     apns-mock-fuzz session-seeds DIR         writes server-session seeds made by an nghttp2 client
    @main
    struct FuzzCommand {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            switch arguments.first {
            case "list":
                for target in FuzzTarget.all { print("\(target.name)\t\(target.maximumLength)\t\(target.summary)") }
            case "replay" where arguments.count >= 3:
                guard let target = FuzzTarget.named(arguments[1]) else { fail("unknown target '\(arguments[1])'") }
                var count = 0
                for path in arguments.dropFirst(2) {
                    for file in FuzzCorpus.files(under: path) {
                        guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)") }
                        target.run(Array(data))
                        count += 1
                    }
                }
                print("\(target.name): replayed \(count) input(s)")
            case "session-seeds" where arguments.count == 2:
                do {
                    let written = try FuzzCorpus.writeSessionSeeds(to: arguments[1])
                    print("wrote \(written.count) server-session seed(s) to \(arguments[1])")
                } catch {
                    fail("cannot write the seeds: \(error)")
                }
            default:
                fail("usage: apns-mock-fuzz list | replay TARGET PATH... | session-seeds DIR")
            }
        }

        static func fail(_ message: String) -> Never {
            FileHandle.standardError.write(Data("apns-mock-fuzz: \(message)\n".utf8))
            exit(2)
        }
    }
#endif
