import APNSMockCore

extension FuzzTarget {
    /// A `Localizable.strings` file (UTF-8 or UTF-16, as the loader detects), loaded into a
    /// catalog, and a preview of a `loc-key` payload with the table it gives.
    static let strings = FuzzTarget(
        name: "strings",
        summary: "a Localizable.strings file -> LocalizationCatalog.addStringsFile, a localized preview",
        maximumLength: 4096
    ) { bytes in
        var catalog = LocalizationCatalog()
        do throws(LocalizationError) {
            try catalog.addStringsFile(bytes, locale: "fr", fileName: "fr.lproj/Localizable.strings")
        } catch {
            _ = error.description
            return
        }
        preview(with: catalog, locale: "fr-CA")
    }

    /// An Xcode string catalog (`.xcstrings`, JSON), loaded into a catalog, and a preview.
    static let stringCatalog = FuzzTarget(
        name: "xcstrings",
        summary: "a .xcstrings catalog -> LocalizationCatalog.addStringCatalog, a localized preview",
        maximumLength: 4096
    ) { bytes in
        var catalog = LocalizationCatalog()
        do throws(LocalizationError) {
            try catalog.addStringCatalog(bytes, fileName: "App.xcstrings")
        } catch {
            _ = error.description
            return
        }
        for locale in catalog.locales { preview(with: catalog, locale: locale) }
        preview(with: catalog, locale: "zz")
    }

    /// Previews, with `catalog`'s table for `locale`, a payload whose keys are every key of that
    /// table (and their arguments), as a device of that locale would show it.
    private static func preview(with catalog: LocalizationCatalog, locale: String) {
        guard let strings = catalog.strings(for: locale) else { return }
        for key in strings.strings.keys.sorted().prefix(8) {
            var writer = JSONWriter(capacity: 256)
            writer.beginObject()
            writer.key("aps")
            writer.beginObject()
            writer.key("alert")
            writer.beginObject()
            writer.key("title-loc-key")
            writer.string(key)
            writer.key("loc-key")
            writer.string(key)
            writer.key("loc-args")
            writer.raw(#"["one", "two", 3, null, "%@"]"#.utf8)
            writer.endObject()
            writer.endObject()
            writer.endObject()
            let context = PayloadContext(pushType: .alert, priority: "10", topic: FuzzFixtures.topic, strings: strings)
            let analysis = PayloadAnalyzer.analyze(
                payload: writer.bytes, payloadSize: writer.bytes.count, context: context)
            precondition(analysis.preview != nil, "no preview of a localized alert")
        }
    }
}
