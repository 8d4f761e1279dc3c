package io.etcdoperator.api.v1alpha2;

import static io.etcdoperator.api.crd.Admission.assertAccepted;
import static io.etcdoperator.api.crd.Admission.assertRejected;
import static io.etcdoperator.api.crd.Admission.assertRejectedAmong;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.crd.CrdValidator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class EtcdDefragRulesTest {

    private static final CrdValidator CRD = CrdValidator.forGenerated("etcddefrags");

    private static final String DEFRAG = """
      spec:
        clusterRef: {name: my-etcd}
      """;

    @AfterAll
    static void everyRuleWasSeenAcceptingAndRejecting() {
        assertThat(CRD.rulesNotSeenBothWays()).isEmpty();
    }

    private static String withRule(String rule) {
        return DEFRAG + "  rule: " + rule + "\n";
    }

    @Test
    void ruleIsOptional() {
        assertAccepted(CRD.create(DEFRAG));
        assertAccepted(CRD.create(withRule("{}")));
    }

    @Test
    void clusterRefMustNameACluster() {
        assertRejected(
                CRD.create("spec: {clusterRef: {name: ''}}"), "spec", "clusterRef.name must name an EtcdCluster");
        assertRejectedAmong(CRD.create("spec: {}"), "spec.clusterRef", "is required");
    }

    @Test
    void allStandsAlone() {
        assertAccepted(CRD.create(withRule("{all: true}")));
        assertAccepted(CRD.create(withRule("{all: false, freeSpaceAbove: 100Mi}")));
        assertRejected(
                CRD.create(withRule("{all: true, freeSpaceAbove: 100Mi}")), "spec.rule", "all cannot be combined");
        assertRejected(
                CRD.create(withRule("{all: true, quotaUsageAbove: 80%}")), "spec.rule", "all cannot be combined");
    }

    @Test
    void thresholdsMustBePositive() {
        assertRejected(
                CRD.create(withRule("{freeSpaceAbove: '0'}")),
                "spec.rule.freeSpaceAbove",
                "freeSpaceAbove must be greater than zero");
        assertRejected(
                CRD.create(withRule("{freeSpaceAbove: -1Mi}")),
                "spec.rule.freeSpaceAbove",
                "freeSpaceAbove must be greater than zero");
        assertRejected(
                CRD.create(withRule("{quotaUsageAbove: 80%, minReclaim: 0Mi}")),
                "spec.rule.minReclaim",
                "minReclaim must be greater than zero");
        assertRejectedAmong(CRD.create(withRule("{freeSpaceAbove: many}")), "spec.rule.freeSpaceAbove", "must match");
    }

    @Test
    void integerQuantitiesGoThroughStringCoercion() {
        assertAccepted(CRD.create(withRule("{freeSpaceAbove: 209715200}")));
        assertAccepted(CRD.create(withRule("{freeSpaceAbove: 209715200, quotaUsageAbove: 90%, minReclaim: 33554432}")));
        assertRejected(
                CRD.create(withRule("{freeSpaceAbove: 0}")),
                "spec.rule.freeSpaceAbove",
                "freeSpaceAbove must be greater than zero");
    }

    @Test
    void minReclaimNeedsQuotaUsageAndStaysBelowFreeSpace() {
        assertAccepted(CRD.create(withRule("{quotaUsageAbove: 80%, minReclaim: 32Mi}")));
        assertRejected(
                CRD.create(withRule("{minReclaim: 32Mi}")),
                "spec.rule",
                "minReclaim only applies together with quotaUsageAbove");
        assertRejected(
                CRD.create(withRule("{freeSpaceAbove: 100Mi, quotaUsageAbove: 80%, minReclaim: 101Mi}")),
                "spec.rule",
                "minReclaim cannot exceed freeSpaceAbove");
        assertAccepted(CRD.create(withRule("{freeSpaceAbove: 100Mi, quotaUsageAbove: 80%, minReclaim: 100Mi}")));
        // As cozystack's CRD: with freeSpaceAbove unset, minReclaim is not compared with the built-in 200Mi.
        assertAccepted(CRD.create(withRule("{quotaUsageAbove: 90%, minReclaim: 300Mi}")));
    }

    @Test
    void quotaUsageIsAPercentageFromOneToAHundred() {
        assertAccepted(CRD.create(withRule("{quotaUsageAbove: 100%}")));
        assertAccepted(CRD.create(withRule("{quotaUsageAbove: 1%}")));
        assertRejected(CRD.create(withRule("{quotaUsageAbove: 0%}")), "spec.rule.quotaUsageAbove", "must match");
        assertRejected(CRD.create(withRule("{quotaUsageAbove: 101%}")), "spec.rule.quotaUsageAbove", "must match");
        assertRejected(CRD.create(withRule("{quotaUsageAbove: '80'}")), "spec.rule.quotaUsageAbove", "must match");
    }

    @Test
    void ttlCannotBeNegative() {
        assertAccepted(CRD.create(DEFRAG + "  ttlSecondsAfterFinished: 0\n"));
        assertRejected(
                CRD.create(DEFRAG + "  ttlSecondsAfterFinished: -1\n"),
                "spec.ttlSecondsAfterFinished",
                "greater than or equal to 0");
    }

    @Test
    void memberHistoryIsKeyedByName() {
        assertAccepted(CRD.create(DEFRAG + """
        status:
          phase: Complete
          defragmented: 1
          members:
          - {name: my-etcd-7xq2k, role: follower, outcome: Defragmented, dbSizeBefore: 300, dbSizeAfter: 100}
          - {name: my-etcd-9abcd, role: leader, outcome: Skipped, reason: BelowThreshold}
        """));
        assertRejected(
                CRD.create(DEFRAG + "status: {members: [{role: leader}]}\n"), "status.members[0].name", "is required");
        assertRejected(
                CRD.create(DEFRAG + "status: {members: [{name: m, outcome: Done}]}\n"),
                "status.members[0].outcome",
                "unsupported value");
    }
}
