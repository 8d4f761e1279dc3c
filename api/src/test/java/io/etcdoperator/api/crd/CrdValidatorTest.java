package io.etcdoperator.api.crd;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The harness itself: it must be able to report what the API server would report, and to notice untested rules. */
class CrdValidatorTest {

    @Test
    void everyRuleInEveryGeneratedCrdCompiles() {
        for (String plural : new String[] {"etcdclusters", "etcdmembers", "etcdsnapshots", "etcddefrags"}) {
            CrdValidator validator = CrdValidator.forGenerated(plural);
            assertThat(validator.schema().rules()).as(plural).isNotEmpty();
        }
    }

    @Test
    void reportsRulesThatWereNeverRejected() {
        CrdValidator validator = CrdValidator.forGenerated("etcdsnapshots");

        validator.create("""
        spec:
          clusterRef: {name: my-etcd}
          destination:
            pvc: {claimName: backups}
        """);

        assertThat(validator.rulesNotSeenBothWays())
                .hasSize(validator.schema().rules().size())
                .allSatisfy(rule -> assertThat(rule).endsWith("(never rejected)"));
    }

    @Test
    void quantityFunctionsAreAvailableToRules() {
        CrdValidator validator = CrdValidator.forGenerated("etcdclusters");

        assertThat(validator.update(
                        "spec: {version: 3.6.11, storage: {size: 1G}}",
                        "spec: {version: 3.6.11, storage: {size: 999M}}"))
                .extracting(Violation::message)
                .containsExactly("storage.size cannot be decreased");
    }

    @Test
    void schemaDefaultsAreAppliedBeforeRulesRun() {
        CrdValidator validator = CrdValidator.forGenerated("etcdclusters");

        // The storage default ({size: 1Gi}) gives the medium rule an old object to compare with.
        assertThat(validator.update("spec: {version: 3.6.11}", "spec: {version: 3.6.11, storage: {medium: Memory}}"))
                .extracting(Violation::path)
                .containsExactly("spec.storage.medium");
    }
}
