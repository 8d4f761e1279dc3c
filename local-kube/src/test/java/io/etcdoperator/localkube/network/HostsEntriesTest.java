package io.etcdoperator.localkube.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostsEntriesTest {

    @Test
    void headlessServicePublishesPodHostnamesUnderItsName() {
        List<HostsEntries.Entry> entries = HostsEntries.compute(
                List.of(pod("etcd-0", "10.234.0.2", true), pod("etcd-1", "10.234.0.3", false)),
                List.of(headless("etcd", false)),
                "cluster.local");

        assertThat(entries)
                .contains(
                        new HostsEntries.Entry(
                                "10.234.0.2", List.of("etcd-0.etcd.ns.svc.cluster.local", "etcd-0.etcd.ns.svc")),
                        new HostsEntries.Entry("10.234.0.2", List.of("etcd.ns.svc.cluster.local", "etcd.ns.svc")));
        assertThat(entries).as("a not-ready pod is not published").noneMatch(e -> e.ip().equals("10.234.0.3"));
    }

    @Test
    void publishNotReadyAddressesPublishesPodsBeforeTheyAreReady() {
        List<HostsEntries.Entry> entries = HostsEntries.compute(
                List.of(pod("etcd-1", "10.234.0.3", false)), List.of(headless("etcd", true)), "example.org");

        assertThat(entries)
                .contains(new HostsEntries.Entry(
                        "10.234.0.3", List.of("etcd-1.etcd.ns.svc.example.org", "etcd-1.etcd.ns.svc")));
    }

    @Test
    void clusterIpServiceResolvesToItsReadyPodsAndIgnoresOtherNamespacesAndLabels() {
        Service client = new ServiceBuilder()
                .withNewMetadata()
                .withName("etcd-client")
                .withNamespace("ns")
                .endMetadata()
                .withNewSpec()
                .withClusterIP("10.96.0.10")
                .addToSelector("app", "etcd")
                .endSpec()
                .build();
        Pod elsewhere = pod("etcd-9", "10.234.0.9", true);
        elsewhere.getMetadata().setNamespace("other");
        Pod unlabelled = pod("web", "10.234.0.8", true);
        unlabelled.getMetadata().getLabels().clear();

        List<HostsEntries.Entry> entries = HostsEntries.compute(
                List.of(pod("etcd-0", "10.234.0.2", true), elsewhere, unlabelled), List.of(client), "cluster.local");

        assertThat(entries)
                .containsExactly(new HostsEntries.Entry(
                        "10.234.0.2", List.of("etcd-client.ns.svc.cluster.local", "etcd-client.ns.svc")));
    }

    @Test
    void aPodsOwnEntryCarriesItsQualifiedHostname() {
        Pod pod = pod("etcd-0", null, false);

        assertThat(HostsEntries.own(pod, "10.234.0.2", "cluster.local").names())
                .containsExactly("etcd-0.etcd.ns.svc.cluster.local", "etcd-0");
    }

    private static Pod pod(String name, String ip, boolean ready) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ns")
                .addToLabels("app", "etcd")
                .endMetadata()
                .withNewSpec()
                .withHostname(name)
                .withSubdomain("etcd")
                .endSpec()
                .withNewStatus()
                .withPodIP(ip)
                .withPhase("Running")
                .addNewCondition()
                .withType("Ready")
                .withStatus(ready ? "True" : "False")
                .endCondition()
                .endStatus()
                .build();
    }

    private static Service headless(String name, boolean publishNotReady) {
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ns")
                .endMetadata()
                .withNewSpec()
                .withClusterIP("None")
                .withPublishNotReadyAddresses(publishNotReady)
                .addToSelector("app", "etcd")
                .endSpec()
                .build();
    }
}
