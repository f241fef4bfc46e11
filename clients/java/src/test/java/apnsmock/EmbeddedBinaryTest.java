package apnsmock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The binary a jar built with {@code build.sh --binary} carries: test.sh runs this class against such
 * a jar, with APNS_MOCK_BIN unset and XDG_CACHE_HOME a new temporary directory.
 */
@Tag("embedded-binary")
class EmbeddedBinaryTest {
    @Test
    void embeddedBinaryIsExtractedOnceToTheUsersCache() throws Exception {
        assumeTrue(ApnsMockBinary.embeddedPlatforms().contains(ApnsMockBinary.platform()),
                "this classpath's apns-mock jar carries no binary for " + ApnsMockBinary.platform());
        assumeTrue(System.getenv("APNS_MOCK_BIN") == null, "APNS_MOCK_BIN is set: it would be used instead");
        String cacheHome = System.getenv("XDG_CACHE_HOME");
        assumeTrue(cacheHome != null && !cacheHome.isEmpty(), "XDG_CACHE_HOME names the cache to extract to");
        Path cache = Path.of(cacheHome, "apns-mock");
        assertFalse(Files.exists(cache), "test.sh gives this test a new cache: " + cache);

        Path extracted;
        BasicFileAttributes first;
        try (ApnsMock mock = ApnsMock.start()) {
            extracted = mock.binary();
            assertEquals(cache, extracted.getParent().getParent());
            String directory = extracted.getParent().getFileName().toString();
            assertTrue(directory.matches(ApnsMockBinary.version().replace(".", "\\.") + "-[0-9a-f]{12}"), directory);
            assertEquals(PosixFilePermissions.fromString("rwxr-xr-x"), Files.getPosixFilePermissions(extracted));
            first = Files.readAttributes(extracted, BasicFileAttributes.class);
            assertTrue(mock.client().health().isObject(), "the extracted server answers");
        }
        FileTime firstModified = first.lastModifiedTime();
        Thread.sleep(20); // a second extraction would give another modification time

        try (ApnsMock again = ApnsMock.start()) {
            assertEquals(extracted, again.binary());
            BasicFileAttributes second = Files.readAttributes(extracted, BasicFileAttributes.class);
            assertEquals(first.fileKey(), second.fileKey(), "the same file (inode), not a new one renamed into place");
            assertEquals(firstModified, second.lastModifiedTime());
        }
        try (Stream<Path> files = Files.list(extracted.getParent())) {
            assertEquals(List.of(extracted), files.toList(), "no temporary file is left behind");
        }
    }
}
