package apnsmock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProviderCredentialsTest {
    @TempDir Path directory;

    private static JsonNode part(String jwt, int index) {
        return Json.parse(new String(Base64.getUrlDecoder().decode(jwt.split("\\.")[index]), StandardCharsets.UTF_8));
    }

    private static PublicKey publicKey(ProviderCredentials credentials) throws Exception {
        String pem = credentials.registrationBody().get("publicKey").asText();
        byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        return KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
    }

    /** Verifies the JOSE signature with the JDK's own raw (IEEE P1363) ECDSA, independent of derToRaw. */
    private static boolean verifies(String jwt, PublicKey key) throws Exception {
        String[] parts = jwt.split("\\.");
        byte[] raw = Base64.getUrlDecoder().decode(parts[2]);
        assertEquals(64, raw.length, "an ES256 signature is R||S, 64 bytes");
        Signature verifier = Signature.getInstance("SHA256withECDSAinP1363Format");
        verifier.initVerify(key);
        verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        return verifier.verify(raw);
    }

    @Test
    void tokenIsAnEs256JwtSignedRawWithoutPadding() throws Exception {
        ProviderCredentials credentials = ProviderCredentials.generate(directory);
        String jwt = credentials.sign(1_700_000_000L);
        assertTrue(jwt.matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+"), jwt);
        assertEquals("ES256", part(jwt, 0).get("alg").asText());
        assertEquals(credentials.keyId(), part(jwt, 0).get("kid").asText());
        assertEquals(ProviderCredentials.DEFAULT_TEAM_ID, part(jwt, 1).get("iss").asText());
        assertEquals(1_700_000_000L, part(jwt, 1).get("iat").asLong());
        assertTrue(credentials.keyId().matches("[A-Z0-9]{10}"), credentials.keyId());
        for (int i = 0; i < 20; i++) { // short R or S values (leading zero bytes) come up now and then
            assertTrue(verifies(credentials.sign(1_700_000_000L + i), publicKey(credentials)));
        }
    }

    @Test
    void tokenIsReusedForFiftyMinutes() {
        AtomicLong now = new AtomicLong(1_700_000_000L);
        ProviderCredentials credentials = ProviderCredentials.generate(directory).withClock(now::get);
        String first = credentials.token();
        now.addAndGet(ProviderCredentials.TOKEN_REUSE_SECONDS - 1);
        assertEquals(first, credentials.token());
        now.addAndGet(1);
        String second = credentials.token();
        assertNotEquals(first, second);
        assertEquals(now.get(), part(second, 1).get("iat").asLong());
    }

    @Test
    void derSignatureBecomesPaddedRawRAndS() {
        // r = 0x00 0x80 … (sign byte, 32 bytes) and s = 0x01 0x02 (2 bytes: padded to 32)
        byte[] r = new byte[32];
        r[0] = (byte) 0x80;
        r[31] = 0x11;
        byte[] der = new byte[2 + 2 + 33 + 2 + 2];
        der[0] = 0x30;
        der[1] = (byte) (der.length - 2);
        der[2] = 0x02;
        der[3] = 33;
        System.arraycopy(r, 0, der, 5, 32);
        der[37] = 0x02;
        der[38] = 2;
        der[39] = 0x01;
        der[40] = 0x02;
        byte[] raw = ProviderCredentials.derToRaw(der, 32);
        byte[] expected = new byte[64];
        System.arraycopy(r, 0, expected, 0, 32);
        expected[62] = 0x01;
        expected[63] = 0x02;
        assertArrayEquals(expected, raw);
        assertThrows(IllegalArgumentException.class, () -> ProviderCredentials.derToRaw(new byte[] {0x31, 0}, 32));
    }

    @Test
    void appleP8FileIsReadWithItsKeyIdFromTheFileName() throws Exception {
        ProviderCredentials generated = ProviderCredentials.generate("ABC123DEFG", "TEAM000001", directory);
        assertEquals(directory.resolve("AuthKey_ABC123DEFG.p8"), generated.keyPath());
        ProviderCredentials loaded = ProviderCredentials.fromP8(generated.keyPath(), null, "TEAM000001");
        assertEquals("ABC123DEFG", loaded.keyId());
        assertTrue(verifies(loaded.token(), publicKey(generated)));
        assertEquals(Files.readString(generated.keyPath()), loaded.registrationBody().get("privateKey").asText());

        Path unnamed = Files.copy(generated.keyPath(), directory.resolve("key.p8"));
        assertThrows(IllegalArgumentException.class, () -> ProviderCredentials.fromP8(unnamed, null, null));
        Path notAKey = Files.writeString(directory.resolve("AuthKey_ZZZZZZZZZZ.p8"), "-----BEGIN PRIVATE KEY-----\nAAAA\n");
        assertThrows(IllegalArgumentException.class, () -> ProviderCredentials.fromP8(notAKey, null, null));
    }
}
