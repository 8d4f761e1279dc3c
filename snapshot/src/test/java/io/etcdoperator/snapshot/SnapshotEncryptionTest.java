package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SnapshotEncryptionTest {

    static final int CHUNK = 1024;
    static final byte[] KEY = new byte[32];

    static {
        new Random(7).nextBytes(KEY);
    }

    @TempDir
    Path keys;

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5})
    void whatIsEncryptedDecryptsToTheSameBytes(int size) throws IOException {
        byte[] plain = plaintext(size);
        byte[] sealed = encrypt(plain, "2025-01");

        assertThat(decrypt(sealed, ring("2025-01", KEY))).isEqualTo(plain);
        int chunks = Math.max(1, (size + CHUNK - 1) / CHUNK);
        assertThat(sealed.length).isGreaterThanOrEqualTo(size + chunks * 16);
    }

    @Test
    void theStoredBytesShowNeitherEtcdsMagicNorKeyNames() throws IOException {
        byte[] plain = plaintext(5 * CHUNK);
        byte[] sealed = encrypt(plain, "2025-01");

        String text = new String(sealed, StandardCharsets.ISO_8859_1);
        assertThat(text).doesNotContain("/registry/").doesNotContain("value-");
        assertThat(indexOf(sealed, new byte[] {(byte) 0xed, (byte) 0xda, 0x0c, (byte) 0xed}))
                .isNegative();
        assertThat(text).startsWith("ETCDSNE1").contains("2025-01");
    }

    @Test
    void twoEncryptionsOfTheSameBytesDiffer() throws IOException {
        byte[] plain = plaintext(100);
        assertThat(encrypt(plain, "k")).isNotEqualTo(encrypt(plain, "k"));
    }

    @Test
    void aWrongKeyUnderTheRightIdFailsWithoutShowingTheKey() throws IOException {
        byte[] sealed = encrypt(plaintext(3 * CHUNK), "2025-01");
        byte[] other = KEY.clone();
        other[0] ^= 1;

        assertThatThrownBy(() -> decrypt(sealed, ring("2025-01", other)))
                .isInstanceOfSatisfying(SnapshotFailure.class, e -> {
                    assertThat(e.reason()).isEqualTo(SnapshotFailure.Reason.DECRYPTION_FAILED);
                    assertThat(e.getMessage())
                            .contains("'2025-01'")
                            .doesNotContain(Base64.getEncoder().encodeToString(other));
                });
    }

    @Test
    void aMissingKeyIdIsNamed() throws IOException {
        byte[] sealed = encrypt(plaintext(10), "2024-12");

        assertThatThrownBy(() -> decrypt(sealed, ring("2025-01", KEY)))
                .isInstanceOfSatisfying(SnapshotFailure.class, e -> {
                    assertThat(e.reason()).isEqualTo(SnapshotFailure.Reason.ENCRYPTION_KEY_MISSING);
                    assertThat(e.getMessage()).contains("'2024-12'");
                });
        assertThatThrownBy(() -> decrypt(sealed, Optional.empty()))
                .isInstanceOfSatisfying(
                        SnapshotFailure.class,
                        e -> assertThat(e.reason()).isEqualTo(SnapshotFailure.Reason.ENCRYPTION_KEY_MISSING));
    }

    @ParameterizedTest(name = "cut after chunk {0}")
    @ValueSource(ints = {1, 2})
    void truncationAtAChunkBoundaryIsDetected(int chunks) throws IOException {
        byte[] sealed = encrypt(plaintext(3 * CHUNK + 5), "k");
        int header = EncryptionHeader.FIXED + 1;
        byte[] cut = Arrays.copyOf(sealed, header + chunks * (CHUNK + 16));

        assertThatThrownBy(() -> decrypt(cut, ring("k", KEY)))
                .isInstanceOfSatisfying(
                        SnapshotFailure.class,
                        e -> assertThat(e.reason()).isEqualTo(SnapshotFailure.Reason.DECRYPTION_FAILED));
    }

    @Test
    void oneFlippedBitIsDetected() throws IOException {
        byte[] sealed = encrypt(plaintext(2 * CHUNK), "k");
        sealed[sealed.length - 40] ^= 4;

        assertThatThrownBy(() -> decrypt(sealed, ring("k", KEY))).isInstanceOf(SnapshotFailure.class);
    }

    @Test
    void aPlainSnapshotPassesWithoutKeysButIsRefusedWhenKeysAreConfigured() throws IOException {
        byte[] plain = plaintext(CHUNK * 2);
        assertThat(decrypt(plain, Optional.empty())).isEqualTo(plain);
        assertThat(decrypt(new byte[3], Optional.empty())).hasSize(3);
        assertThatThrownBy(() -> decrypt(plain, ring("k", KEY)))
                .isInstanceOfSatisfying(
                        SnapshotFailure.class,
                        e -> assertThat(e.reason()).isEqualTo(SnapshotFailure.Reason.DECRYPTION_FAILED));
    }

    @Test
    void aSecretValueIsRawOrBase64AndExactly32Bytes() {
        assertThat(EncryptionKey.fromSecretValue("a", KEY).secretKey().getEncoded())
                .isEqualTo(KEY);
        byte[] text = (Base64.getEncoder().encodeToString(KEY) + "\n").getBytes(StandardCharsets.US_ASCII);
        assertThat(EncryptionKey.fromSecretValue("a", text).secretKey().getEncoded())
                .isEqualTo(KEY);
        assertThat(EncryptionKey.fromSecretValue("a", KEY)).hasToString("EncryptionKey[id=a]");
        assertThatThrownBy(() -> EncryptionKey.fromSecretValue("a", "short".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(SnapshotFailure.class)
                .hasMessageNotContaining("short");
        assertThatThrownBy(() -> EncryptionKey.fromSecretValue("../x", KEY)).isInstanceOf(SnapshotFailure.class);
    }

    static byte[] encrypt(byte[] plain, String keyId) throws IOException {
        var sealed = new ByteArrayOutputStream();
        var out = new EncryptingOutputStream(sealed, new EncryptionKey(keyId, KEY), CHUNK);
        out.write(plain, 0, Math.min(plain.length, 3));
        out.write(plain, Math.min(plain.length, 3), plain.length - Math.min(plain.length, 3));
        out.finish();
        return sealed.toByteArray();
    }

    /** Written in uneven pieces, as a network stream arrives. */
    static byte[] decrypt(byte[] sealed, Optional<KeyRing> ring) throws IOException {
        var plain = new ByteArrayOutputStream();
        try (var in = new DecryptingOutputStream(plain, ring)) {
            for (int off = 0; off < sealed.length; off += 7 + off % 500) {
                in.write(sealed, off, Math.min(7 + off % 500, sealed.length - off));
            }
        }
        return plain.toByteArray();
    }

    private Optional<KeyRing> ring(String id, byte[] key) throws IOException {
        Files.write(keys.resolve(id), key);
        return Optional.of(new KeyRing(keys));
    }

    static byte[] plaintext(int size) {
        byte[] bytes = new byte[size];
        byte[] pattern = "/registry/pods/default/x value-1 ".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < size; i++) {
            bytes[i] = i % 4096 < 4
                    ? new byte[] {(byte) 0xed, (byte) 0xda, 0x0c, (byte) 0xed}[i % 4096]
                    : pattern[i % pattern.length];
        }
        return bytes;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
