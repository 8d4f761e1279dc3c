package io.etcdoperator.localkube;

import io.etcdoperator.localkube.node.ImageCatalogue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a local cluster until SIGTERM (or Ctrl-C), for scripts:
 * {@code java -jar etcd-operator-local-kube.jar --work-dir .sandbox --nodes 3 [--zones a,b,c]
 * [--operator-jar X --operator-image Y] [--kubeconfig PATH] [--cluster-domain D] [--crds-on-1.36 DIR]}. Prints
 * progress lines and then one line starting with {@code ready}; on SIGTERM it stops everything it started. With
 * {@code --crds-on-1.36} the CRDs of DIR are served by a 1.36 apiextensions-apiserver behind the aggregator (CEL
 * enforced; see docs/local-kubernetes.md).
 * With {@code --containers true --operator-layout OCI-DIR}, Pods run from images in runc containers; with
 * {@code --registry HOST[=ENDPOINT]} (repeatable) images under HOST that the nodes lack are pulled over plain HTTP from
 * ENDPOINT (HOST itself by default), e.g. a loopback registry that hack/release.sh pushed to. With
 * {@code --simulated-etcd true}, etcd member Pods are answered by a simulated etcd (no processes).
 */
public final class Main {

    private Main() {}

    public static void main(String[] args) throws InterruptedException, IOException {
        Path workDir = Path.of(".local-kube");
        Path kubeconfigCopy = null;
        Path operatorJar = null;
        Path celCrds = null;
        Path operatorLayout = null;
        boolean containers = false;
        List<String> registries = new ArrayList<>();
        String operatorImage = "ghcr.io/etcd-operator/etcd-operator:dev";
        LocalKubernetesOptions options = LocalKubernetesOptions.defaults();
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        while (!rest.isEmpty()) {
            String flag = rest.removeFirst();
            if (flag.equals("-h") || flag.equals("--help")) {
                usage(0);
            }
            if (rest.isEmpty()) {
                usage(2);
            }
            String value = rest.removeFirst();
            switch (flag) {
                case "--work-dir" -> workDir = Path.of(value);
                case "--nodes" -> options = options.withNodes(Integer.parseInt(value));
                case "--zones" -> options = options.withZones(List.of(value.split(",")));
                case "--cluster-domain" -> options = options.withClusterDomain(value);
                case "--kubeconfig" -> kubeconfigCopy = Path.of(value);
                case "--operator-jar" -> operatorJar = Path.of(value);
                case "--operator-image" -> operatorImage = value;
                case "--crds-on-1.36" -> celCrds = Path.of(value);
                case "--operator-layout" -> operatorLayout = Path.of(value);
                case "--containers" -> containers = Boolean.parseBoolean(value);
                case "--registry" -> registries.add(value);
                case "--simulated-etcd" ->
                    options = Boolean.parseBoolean(value) ? options.withSimulatedEtcd() : options;
                default -> usage(2);
            }
        }
        LocalKubernetes.reuse(workDir);
        options =
                options.withImages(images(workDir, containers, operatorImage, operatorLayout, operatorJar, registries));

        CountDownLatch stop = new CountDownLatch(1);
        try (LocalKubernetes cluster = LocalKubernetes.start(workDir, options, Main::progress)) {
            ApiExtensionsServer apiext = celCrds == null ? null : servedFrom136(cluster, workDir, celCrds);
            if (kubeconfigCopy != null) {
                Files.createDirectories(kubeconfigCopy.toAbsolutePath().getParent());
                Files.copy(cluster.kubeconfig(), kubeconfigCopy, StandardCopyOption.REPLACE_EXISTING);
            }
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                progress("stopping");
                                if (apiext != null) {
                                    apiext.close();
                                }
                                cluster.close();
                                stop.countDown();
                            },
                            "local-kube-main-stop"));
            System.out.println("ready kubeconfig="
                    + (kubeconfigCopy != null ? kubeconfigCopy.toAbsolutePath() : cluster.kubeconfig()) + " hosts="
                    + cluster.hostsFile() + " nodes=" + cluster.nodes().size()
                    + " network=\"" + cluster.podNetwork() + "\""
                    + (apiext == null ? "" : " apiext-kubeconfig=" + apiext.kubeconfig()));
            System.out.flush();
            stop.await();
        }
    }

    private static ImageCatalogue images(
            Path workDir,
            boolean containers,
            String operatorImage,
            Path operatorLayout,
            Path operatorJar,
            List<String> registries) {
        // --containers true: etcd images and the operator's OCI layout run in runc containers, not as host processes
        ImageCatalogue.Builder images = containers
                ? ImageCatalogue.withContainerEtcdImages(
                        workDir.toAbsolutePath().resolve("images"))
                : ImageCatalogue.withEtcdImages();
        images.host("busybox");
        for (String registry : registries) {
            String[] hostAndEndpoint = registry.split("=", 2);
            images.registry(
                    hostAndEndpoint[0],
                    hostAndEndpoint.length > 1 ? hostAndEndpoint[1] : hostAndEndpoint[0],
                    workDir.toAbsolutePath().resolve("images/pulled"));
        }
        if (operatorLayout != null) {
            images.oci(
                    operatorImage,
                    operatorLayout.toAbsolutePath(),
                    operatorImage.substring(operatorImage.lastIndexOf(':') + 1),
                    workDir.toAbsolutePath().resolve("images/operator"));
        } else if (operatorJar != null) {
            images.operator(operatorImage, operatorJar);
        }
        return images.build();
    }

    private static ApiExtensionsServer servedFrom136(LocalKubernetes cluster, Path workDir, Path crds)
            throws InterruptedException {
        ApiExtensionsServer apiext = ApiExtensionsServer.startBehind(cluster.controlPlane(), workDir.resolve("apiext"));
        progress("apiextensions-apiserver " + ApiExtensionsBinaries.VERSION + " ready after "
                + apiext.timeToReady().toMillis() + " ms");
        progress("serving " + apiext.serveCustomResourceDefinitions(crds) + " from it through the aggregator");
        return apiext;
    }

    private static void progress(String line) {
        System.out.println("local-kube: " + line);
        System.out.flush();
    }

    private static void usage(int status) {
        System.err.println("usage: Main --work-dir DIR [--nodes N] [--zones a,b,c] [--cluster-domain D]"
                + " [--kubeconfig PATH] [--operator-jar JAR --operator-image IMAGE] [--crds-on-1.36 DIR]"
                + " [--containers true] [--operator-layout OCI-DIR --operator-image IMAGE] [--registry HOST[=ENDPOINT]]"
                + " [--simulated-etcd true]");
        System.exit(status);
    }
}
