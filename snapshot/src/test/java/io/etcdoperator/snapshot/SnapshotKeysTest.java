package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SnapshotKeysTest {

    @ParameterizedTest(name = "prefix ''{0}'' -> {1}")
    @CsvSource(
            delimiter = '|',
            nullValues = "NULL",
            value = {
                "NULL            | nightly.db",
                "''              | nightly.db",
                "backups         | backups/nightly.db",
                "backups/        | backups/nightly.db",
                "/backups/prod   | backups/prod/nightly.db",
                "'  a/b/ '       | a/b/nightly.db",
            })
    void objectKeyJoinsPrefixAndFileWithOneSlash(String prefix, String key) {
        assertThat(SnapshotStore.key(prefix, "nightly.db")).isEqualTo(key);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "sha256:ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789 | abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789",
                "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789 | abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789",
            })
    void checksumsParseWithOrWithoutPrefix(String checksum, String hex) {
        assertThat(StoredSnapshot.hexOf(checksum)).isEqualTo(hex);
    }

    @ParameterizedTest
    @CsvSource({"sha256:abc", "md5:abcdef0123456789abcdef0123456789", "''"})
    void otherChecksumsAreInvalidRequests(String checksum) {
        assertThatThrownBy(() -> StoredSnapshot.hexOf(checksum)).isInstanceOf(SnapshotFailure.class);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"''|uid", "a/b|uid", "name|''"})
    void identitiesNeedAPlainNameAndAUid(String name, String uid) {
        assertThatThrownBy(() -> new SnapshotIdentity(name, uid)).isInstanceOf(SnapshotFailure.class);
    }
}
