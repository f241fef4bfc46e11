package apnsmock;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A provider's token-signing credentials: an EC P-256 key, its key id and team id, and {@link
 * #token()}, the ES256 JSON Web Token a provider sends as {@code authorization: bearer <token>}.
 *
 * <p>{@link ApnsMock} registers them with the server at start ({@code PUT /v1/keys/{keyId}}), so a
 * token signed by any other key is refused 403 {@code InvalidProviderToken}. The key is generated per
 * session ({@link #generate}), or the user's own {@code .p8} file ({@link #fromP8}, or {@link
 * #fromEnvironment}: {@code APNS_MOCK_PROVIDER_KEY}, {@code APNS_MOCK_PROVIDER_KEY_ID}, {@code
 * APNS_MOCK_PROVIDER_TEAM_ID}).
 */
public final class ProviderCredentials {
    /** The team id when none is given. */
    public static final String DEFAULT_TEAM_ID = "MOCKTEAM00";

    /**
     * How long {@link #token()} reuses a token, in seconds (50 minutes): Apple refuses a token older
     * than an hour, and answers 429 TooManyProviderTokenUpdates to a provider that changes its token
     * more often than every 20 minutes.
     */
    public static final long TOKEN_REUSE_SECONDS = 50 * 60;

    private static final Pattern APPLE_KEY_FILE = Pattern.compile("AuthKey_([A-Z0-9]{10})\\.p8");
    private static final String KEY_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final PrivateKey privateKey;
    private final String publicKeyPem; // null for a key read from a file: the server is given the file
    private final String privateKeyPem;
    private final String keyId;
    private final String teamId;
    private final Path keyPath;
    private final LongSupplier clock;
    private String cachedToken;
    private long cachedAt;

    ProviderCredentials(PrivateKey privateKey, String publicKeyPem, String privateKeyPem, String keyId, String teamId,
            Path keyPath, LongSupplier clock) {
        this.privateKey = privateKey;
        this.publicKeyPem = publicKeyPem;
        this.privateKeyPem = privateKeyPem;
        this.keyId = keyId;
        this.teamId = teamId;
        this.keyPath = keyPath;
        this.clock = clock;
    }

    /**
     * A new P-256 key with a random key id and the team id {@value #DEFAULT_TEAM_ID}, written as
     * {@code AuthKey_<keyId>.p8} into {@code directory} (or a temporary file deleted when the JVM
     * exits, when {@code directory} is null) for code that reads a key file.
     */
    public static ProviderCredentials generate(Path directory) {
        return generate(randomKeyId(), DEFAULT_TEAM_ID, directory);
    }

    /** A new P-256 key under these ids, written as {@code AuthKey_<keyId>.p8} into {@code directory} (or a temporary file). */
    public static ProviderCredentials generate(String keyId, String teamId, Path directory) {
        KeyPair pair;
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            pair = generator.generateKeyPair();
        } catch (GeneralSecurityException error) {
            throw new IllegalStateException("this JVM cannot generate an EC P-256 key: " + error, error);
        }
        String privatePem = pem("PRIVATE KEY", pair.getPrivate().getEncoded());
        Path path;
        try {
            if (directory == null) {
                path = Files.createTempFile("AuthKey_" + keyId + "-", ".p8");
                path.toFile().deleteOnExit();
            } else {
                path = directory.resolve("AuthKey_" + keyId + ".p8");
            }
            Files.writeString(path, privatePem, StandardCharsets.US_ASCII);
            try {
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // a file system without POSIX permissions: leave them as they are
            }
        } catch (IOException error) {
            throw new UncheckedIOException("cannot write the provider key file: " + error, error);
        }
        return new ProviderCredentials(pair.getPrivate(), pem("PUBLIC KEY", pair.getPublic().getEncoded()), privatePem,
                checkKeyId(keyId), teamId, path, ProviderCredentials::epochSeconds);
    }

    /**
     * The key of an Apple {@code .p8} file (PKCS#8 PEM, EC P-256).
     *
     * @param keyId its key id; null to read it from a file named {@code AuthKey_<keyId>.p8}
     * @param teamId the team id; null for {@value #DEFAULT_TEAM_ID}
     */
    public static ProviderCredentials fromP8(Path p8, String keyId, String teamId) {
        String text;
        try {
            text = Files.readString(p8, StandardCharsets.US_ASCII);
        } catch (IOException error) {
            throw new UncheckedIOException("cannot read the provider key " + p8 + ": " + error, error);
        }
        if (keyId == null || keyId.isEmpty()) {
            Matcher matcher = APPLE_KEY_FILE.matcher(p8.getFileName().toString());
            if (!matcher.matches()) {
                throw new IllegalArgumentException("no key id for " + p8 + ": give one (APNS_MOCK_PROVIDER_KEY_ID), "
                        + "or name the file AuthKey_<KEYID>.p8 as Apple does");
            }
            keyId = matcher.group(1);
        }
        String base64 = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey key;
        try {
            key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (GeneralSecurityException | IllegalArgumentException error) {
            throw new IllegalArgumentException(p8 + " is not a PKCS#8 EC private key (an Apple .p8 file): " + error, error);
        }
        if (!(key instanceof ECPrivateKey ec) || ec.getParams().getCurve().getField().getFieldSize() != 256) {
            throw new IllegalArgumentException(p8 + " is not an EC P-256 key");
        }
        return new ProviderCredentials(key, null, text, checkKeyId(keyId),
                teamId == null || teamId.isEmpty() ? DEFAULT_TEAM_ID : teamId, p8, ProviderCredentials::epochSeconds);
    }

    /**
     * The credentials the environment names ({@code APNS_MOCK_PROVIDER_KEY} = a {@code .p8} path,
     * {@code APNS_MOCK_PROVIDER_KEY_ID}, {@code APNS_MOCK_PROVIDER_TEAM_ID}), or a key generated
     * into {@code directory} when {@code APNS_MOCK_PROVIDER_KEY} is unset.
     */
    public static ProviderCredentials fromEnvironment(Map<String, String> environment, Path directory) {
        String path = environment.get("APNS_MOCK_PROVIDER_KEY");
        String teamId = environment.get("APNS_MOCK_PROVIDER_TEAM_ID");
        if (path == null || path.isEmpty()) {
            String keyId = environment.get("APNS_MOCK_PROVIDER_KEY_ID");
            return generate(keyId == null || keyId.isEmpty() ? randomKeyId() : keyId,
                    teamId == null || teamId.isEmpty() ? DEFAULT_TEAM_ID : teamId, directory);
        }
        return fromP8(Path.of(path), environment.get("APNS_MOCK_PROVIDER_KEY_ID"), teamId);
    }

    /** A random key id: 10 characters of A-Z and 0-9, as Apple's are. */
    public static String randomKeyId() {
        char[] id = new char[10];
        for (int i = 0; i < id.length; i++) {
            id[i] = KEY_ID_ALPHABET.charAt(RANDOM.nextInt(KEY_ID_ALPHABET.length()));
        }
        return new String(id);
    }

    private static String checkKeyId(String keyId) {
        if (!keyId.matches("[A-Za-z0-9]+")) {
            throw new IllegalArgumentException("a key id is letters and digits (Apple's: 10 of A-Z0-9), not " + keyId);
        }
        return keyId;
    }

    /** The key file: the user's {@code .p8}, or where the generated key was written (PKCS#8 PEM). */
    public Path keyPath() {
        return keyPath;
    }

    /** The key id, the JWT header's {@code kid}. */
    public String keyId() {
        return keyId;
    }

    /** The team id, the JWT's {@code iss}. */
    public String teamId() {
        return teamId;
    }

    /** The signing key. */
    public PrivateKey privateKey() {
        return privateKey;
    }

    /**
     * The provider token: an ES256 JWT, header {@code {"alg":"ES256","kid":keyId}}, claims
     * {@code {"iss":teamId,"iat":<now, seconds>}}, signed R||S (64 bytes) in base64url without
     * padding. The same token is returned for {@value #TOKEN_REUSE_SECONDS} seconds, as a provider
     * should reuse it.
     */
    public synchronized String token() {
        long now = clock.getAsLong();
        if (cachedToken == null || now - cachedAt >= TOKEN_REUSE_SECONDS) {
            cachedToken = sign(now);
            cachedAt = now;
        }
        return cachedToken;
    }

    /** A new token issued at {@code issuedAt} (epoch seconds), not cached: for tests of token age. */
    public String sign(long issuedAt) {
        ObjectNode header = Json.MAPPER.createObjectNode().put("alg", "ES256").put("kid", keyId);
        ObjectNode claims = Json.MAPPER.createObjectNode().put("iss", teamId).put("iat", issuedAt);
        Base64.Encoder base64url = Base64.getUrlEncoder().withoutPadding();
        String signingInput = base64url.encodeToString(Json.write(header).getBytes(StandardCharsets.UTF_8)) + "."
                + base64url.encodeToString(Json.write(claims).getBytes(StandardCharsets.UTF_8));
        byte[] der;
        try {
            Signature signature = Signature.getInstance("SHA256withECDSA");
            signature.initSign(privateKey);
            signature.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            der = signature.sign();
        } catch (GeneralSecurityException error) {
            throw new IllegalStateException("cannot sign with the provider key: " + error, error);
        }
        return signingInput + "." + base64url.encodeToString(derToRaw(der, 32));
    }

    /**
     * An ECDSA signature in DER ({@code SEQUENCE {INTEGER r, INTEGER s}}, what {@code
     * SHA256withECDSA} gives) as JOSE wants it: r then s, each unsigned big-endian, left-padded to
     * {@code size} bytes.
     */
    static byte[] derToRaw(byte[] der, int size) {
        int offset = 0;
        if (der[offset++] != 0x30) {
            throw new IllegalArgumentException("not a DER SEQUENCE");
        }
        offset += derLengthBytes(der, offset);
        byte[] raw = new byte[2 * size];
        for (int part = 0; part < 2; part++) {
            if (der[offset++] != 0x02) {
                throw new IllegalArgumentException("not a DER INTEGER");
            }
            int length = der[offset] & 0xFF;
            offset += derLengthBytes(der, offset);
            if (length >= 0x80) {
                throw new IllegalArgumentException("an INTEGER too long for a P-256 signature");
            }
            int start = offset;
            int end = offset + length;
            while (start < end - 1 && der[start] == 0) {
                start++; // the sign byte (and any other leading zero)
            }
            int significant = end - start;
            if (significant > size) {
                throw new IllegalArgumentException("an INTEGER longer than " + size + " bytes");
            }
            System.arraycopy(der, start, raw, part * size + size - significant, significant);
            offset = end;
        }
        return raw;
    }

    private static int derLengthBytes(byte[] der, int offset) {
        int first = der[offset] & 0xFF;
        return first < 0x80 ? 1 : 1 + (first & 0x7F);
    }

    /** The body of {@code PUT /v1/keys/{keyId}}: the public key (generated), or the .p8's text (the server keeps its public half). */
    ObjectNode registrationBody() {
        ObjectNode body = Json.MAPPER.createObjectNode().put("teamId", teamId).put("environment", "both");
        if (publicKeyPem != null) {
            body.put("publicKey", publicKeyPem);
        } else {
            body.put("privateKey", privateKeyPem);
        }
        return body;
    }

    /** These credentials with another clock (epoch seconds), for tests of the token's reuse. */
    ProviderCredentials withClock(LongSupplier otherClock) {
        return new ProviderCredentials(privateKey, publicKeyPem, privateKeyPem, keyId, teamId, keyPath, otherClock);
    }

    private static String pem(String label, byte[] der) {
        String base64 = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
        return "-----BEGIN " + label + "-----\n" + base64 + "\n-----END " + label + "-----\n";
    }

    private static long epochSeconds() {
        return System.currentTimeMillis() / 1000;
    }

    @Override
    public String toString() {
        return "ProviderCredentials(keyId=" + keyId + ", teamId=" + teamId + ", keyPath=" + keyPath + ")";
    }
}
