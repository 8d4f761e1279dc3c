package io.etcdoperator.e2e;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * Installs the committed CRDs from config/crd/bases. Create-or-update rather than server-side apply: Kubernetes
 * 1.20 cannot apply a CRD that carries x-kubernetes-validations (it drops the rules on create).
 */
public final class ProjectCrds {

    private ProjectCrds() {}

    public static Path directory() {
        return Path.of(System.getProperty("crd.dir", "../config/crd/bases"));
    }

    public static void install(KubernetesClient client) {
        for (Path file : files()) {
            CustomResourceDefinition crd;
            try (InputStream in = Files.newInputStream(file)) {
                crd = client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            client.resource(crd).createOr(NonDeletingOperation::update);
            String name = crd.getMetadata().getName();
            Await.until(name + " Established", Duration.ofSeconds(30), () -> {
                CustomResourceDefinition live = client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(name)
                        .get();
                return live != null
                        && live.getStatus() != null
                        && live.getStatus().getConditions().stream()
                                .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
            });
        }
    }

    private static List<Path> files() {
        try (Stream<Path> files = Files.list(directory())) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
