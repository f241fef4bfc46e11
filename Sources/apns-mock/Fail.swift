import APNSMock

#if canImport(Glibc)
    import func Glibc.exit
#elseif canImport(Darwin)
    import func Darwin.exit
#endif

/// Writes `message` to standard error and exits with `code`: a command's failure, one line.
func fail(_ code: Int32, _ message: String) -> Never {
    DescriptorOutput.standardError(message + "\n")
    exit(code)
}
