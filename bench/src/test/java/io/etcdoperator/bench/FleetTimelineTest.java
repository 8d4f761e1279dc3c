package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FleetTimelineTest {

    private static final List<String> LOG = List.of(
            "2026-11-24T23:14:57.295Z [ReconcilerExecutor-etcdcluster-63] INFO ClusterReport - cluster=a reason=InitialSnapshot replicas=3 version=3.5.16 target latched",
            "2026-11-24T23:14:58.100Z [main] INFO Operator - starting",
            "2026-11-24T23:15:04.416Z [ReconcilerExecutor-etcdcluster-1] INFO ClusterReport - cluster=a reason=LearnerAdded detail=added member a-x as learner 1 pass",
            "2026-11-24T23:15:09.000Z [ReconcilerExecutor-etcdcluster-1] INFO ClusterReport - cluster=a reason=LearnerCatchingUp detail=learner add refused: add learner http://a-y failed: UNAVAILABLE: etcdserver: unhealthy cluster pass",
            "2026-11-24T23:15:11.085Z [ReconcilerExecutor-etcdcluster-2] INFO ClusterReport - cluster=a reason=LearnerAdded detail=added member a-y as learner 2 pass",
            "2026-11-24T23:15:11.500Z [ReconcilerExecutor-etcdcluster-2] INFO ClusterReport - cluster=b reason=InitialSnapshot replicas=3",
            "    at io.etcdoperator.Something(Something.java:1)");

    @Test
    void milestonesPassesAndRefusalsPerCluster() {
        FleetTimeline timeline = FleetTimeline.parse(LOG.stream());
        assertThat(timeline.between("a", "LearnerAdded", 1, "LearnerAdded", 2)).contains(Duration.ofMillis(6_669));
        assertThat(timeline.between("a", "InitialSnapshot", 1, "LearnerAdded", 1))
                .contains(Duration.ofMillis(7_121));
        assertThat(timeline.at("a", "LearnerAdded", 3)).isEmpty();
        assertThat(timeline.at("c", "InitialSnapshot", 1)).isEmpty();
        assertThat(timeline.passes("a")).isEqualTo(4);
        assertThat(timeline.passes("b")).isEqualTo(1);
        assertThat(timeline.refusedAdds("a")).isEqualTo(1);
        assertThat(timeline.reconcilerThreads()).isEqualTo(3);
    }

    @Test
    void nearestRankPercentiles() {
        List<Double> values = List.of(5.0, 1.0, 4.0, 2.0, 3.0);
        assertThat(FleetTimeline.percentile(values, 50)).isEqualTo(3.0);
        assertThat(FleetTimeline.percentile(values, 90)).isEqualTo(5.0);
        assertThat(FleetTimeline.percentile(values, 0)).isEqualTo(1.0);
        assertThat(FleetTimeline.percentile(List.of(), 50)).isNaN();
    }

    @Test
    void apiServerRequestsByVerbAndResourceSinceAnEarlierScrape() {
        String before = """
        # HELP apiserver_request_total counter
        apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="status",verb="PATCH",version="v1"} 10
        apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="POST",version="v1"} 3
        """;
        String after = before.replace("} 10", "} 25") + """
        apiserver_request_total{code="409",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="status",verb="PATCH",version="v1"} 2
        apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="",scope="",subresource="",verb="GET",version=""} 7
        """;
        Map<String, Long> delta = ApiServerRequests.parse(after).since(ApiServerRequests.parse(before));
        assertThat(delta).containsExactly(Map.entry("PATCH pods/status", 17L), Map.entry("GET (non-resource)", 7L));
        assertThat(ApiServerRequests.parse(after).total()).isEqualTo(37);
    }
}
