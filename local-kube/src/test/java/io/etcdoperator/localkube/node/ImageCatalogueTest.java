package io.etcdoperator.localkube.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageCatalogueTest {

    @TempDir
    Path images;

    @Test
    void resolvesAContainerCommandByBasenameInTheImageDirectory() throws Exception {
        Path etcd = executable(images.resolve("etcd"));
        ImageCatalogue catalogue = ImageCatalogue.withEtcdImages()
                .directory("etcd:test", images, "/usr/local/bin/etcd")
                .build();
        ImageCatalogue.Image image = catalogue.image("etcd:test").orElseThrow();

        assertThat(catalogue.commandLine(image, List.of("/usr/local/bin/etcd"), List.of("--name=a")))
                .contains(List.of(etcd.toString(), "--name=a"));
        assertThat(catalogue.commandLine(image, List.of(), List.of("--name=b")))
                .contains(List.of(etcd.toString(), "--name=b"));
        assertThat(catalogue.commandLine(image, List.of("/bin/sh", "-c", "true"), List.of()))
                .contains(List.of("/bin/sh", "-c", "true"));
        assertThat(catalogue.commandLine(image, List.of("/usr/local/bin/no-such-tool"), List.of()))
                .isEmpty();
    }

    /** etcd-guard, copied into an emptyDir by an init container, runs from there and execs the image's etcd. */
    @Test
    void aProgramInAVolumeRunsFromThereAndItsImagePathsBecomeHostBinaries() throws Exception {
        Path etcd = executable(images.resolve("etcd"));
        ImageCatalogue catalogue = ImageCatalogue.withEtcdImages()
                .directory("etcd:test", images, "/usr/local/bin/etcd")
                .build();
        ImageCatalogue.Image image = catalogue.image("etcd:test").orElseThrow();

        assertThat(catalogue.commandLine(
                        image,
                        List.of("/opt/etcd-guard/etcd-guard", "--", "/usr/local/bin/etcd"),
                        List.of("--name=a"),
                        List.of(Path.of("/var/lib/etcd"), Path.of("/opt/etcd-guard"))))
                .contains(List.of("/opt/etcd-guard/etcd-guard", "--", etcd.toString(), "--name=a"));
        assertThat(catalogue.commandLine(
                        image, List.of("/opt/etcd-guard/etcd-guard"), List.of(), List.of(Path.of("/opt/other"))))
                .as("not in a volume, not in the image")
                .isEmpty();
    }

    @Test
    void theOperatorImageIsJavaJarWithTheArgsAppended() {
        ImageCatalogue catalogue = ImageCatalogue.withEtcdImages()
                .operator("operator:dev", Path.of("/opt/op.jar"))
                .build();
        List<String> line = catalogue
                .commandLine(catalogue.image("operator:dev").orElseThrow(), List.of(), List.of("--namespace=x"))
                .orElseThrow();

        assertThat(line.getFirst()).endsWith("/bin/java");
        assertThat(line.subList(1, line.size())).containsExactly("-jar", "/opt/op.jar", "--namespace=x");
    }

    @Test
    void argsReplaceAHostImagesDefaultCommandLikeKubectlRun() {
        ImageCatalogue catalogue =
                ImageCatalogue.withEtcdImages().host("busybox").build();
        ImageCatalogue.Image image = catalogue.image("busybox").orElseThrow();

        assertThat(catalogue.commandLine(image, List.of(), List.of("/bin/sh", "-c", "echo hi")))
                .contains(List.of("/bin/sh", "-c", "echo hi"));
        assertThat(catalogue.commandLine(image, List.of(), List.of())).contains(List.of("/bin/sh"));
    }

    @Test
    void knowsTheProjectsEtcdImagesAndNoOthers() {
        ImageCatalogue catalogue = ImageCatalogue.withEtcdImages().build();

        for (String registry : List.of("quay.io/coreos/etcd", "gcr.io/etcd-development/etcd")) {
            assertThat(catalogue.image(registry + ":v3.4.23")).isPresent();
            assertThat(catalogue.image(registry + ":v3.5.16")).isPresent();
            assertThat(catalogue.image(registry + ":v3.5.30")).isPresent();
        }
        assertThat(catalogue.image("quay.io/coreos/etcd:v3.6.0")).isEmpty();
    }

    private static Path executable(Path file) throws Exception {
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
