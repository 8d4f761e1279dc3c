package io.etcdoperator.api.crd;

import static io.etcdoperator.api.crd.CrdSchema.asMap;
import static io.etcdoperator.api.crd.CrdSchema.listOrEmpty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdoperator.localkube.ApiExtensionsServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real Kubernetes 1.36 apiextensions-apiserver as a second judge of the test objects: CRDs are installed as they
 * are, objects are created (spec through the resource, status through {@code /status}) and updated with PUT, and the
 * server's verdict comes back as HTTP code and causes. One server per test JVM, started on first use when the
 * {@value #ENABLED} system property is true (the api module's failsafe run), stopped when the JVM exits.
 */
public final class ServerAdmission implements AutoCloseable {

    public static final String ENABLED = "cel.server";
    private static final Duration ESTABLISH_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NAMESPACE = "default";
    private static ServerAdmission shared;

    private final ApiExtensionsServer server;
    private final KubernetesClient client;
    private final HttpClient http;
    private final Set<String> installed = new HashSet<>();
    private final AtomicInteger objects = new AtomicInteger();

    private ServerAdmission(ApiExtensionsServer server) {
        this.server = server;
        this.client = server.newClient();
        this.http = client.getHttpClient();
    }

    public static boolean enabled() {
        return Boolean.getBoolean(ENABLED);
    }

    /** The JVM's server, started in target/apiext-server on first use. */
    public static synchronized ServerAdmission shared() {
        if (shared == null) {
            shared = start(Path.of("target/apiext-server"));
            Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "apiext-admission-close"));
        }
        return shared;
    }

    /** A server of its own, in {@code workDir} (emptied first); the caller closes it. */
    public static ServerAdmission start(Path workDir) {
        deleteRecursively(workDir.toAbsolutePath());
        try {
            return new ServerAdmission(ApiExtensionsServer.start(workDir.toAbsolutePath()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the apiextensions-apiserver", e);
        }
    }

    public ApiExtensionsServer server() {
        return server;
    }

    /** The server's answer to one request: its HTTP code and, when refused, its message and causes. */
    public record Verdict(int code, String message, List<Violation> causes) {

        public boolean accepted() {
            return code / 100 == 2;
        }

        @Override
        public String toString() {
            return accepted() ? "HTTP " + code : "HTTP " + code + " " + message;
        }
    }

    /** Creates a CRD as it is and waits until it is Established; any refusal is returned with the server's message. */
    public Verdict installCrd(Map<String, Object> crd) {
        String name = (String) asMap(crd.get("metadata")).get("name");
        Verdict created = send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
        if (!created.accepted()) {
            return created;
        }
        String path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name;
        Instant deadline = Instant.now().plus(ESTABLISH_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            Map<String, Object> current = get(path);
            Map<String, Object> status = asMap(current.getOrDefault("status", Map.of()));
            boolean established = listOrEmpty(status.get("conditions")).stream()
                    .map(CrdSchema::asMap)
                    .anyMatch(c -> "Established".equals(c.get("type")) && "True".equals(c.get("status")));
            if (established) {
                return created;
            }
            pause();
        }
        throw new AssertionError("CRD " + name + " was created but not Established within " + ESTABLISH_TIMEOUT);
    }

    /** The object as the server admits it on create: spec through the resource, then status through /status. */
    public Verdict create(CrdSchema schema, Map<String, Object> object) {
        ensureInstalled(schema);
        return store(schema, object, nameOf(object).orElse("c" + objects.incrementAndGet()));
    }

    /** Stores {@code old} (which must be accepted), then replaces it with {@code object}, status included. */
    public Verdict update(CrdSchema schema, Map<String, Object> old, Map<String, Object> object) {
        ensureInstalled(schema);
        String name = nameOf(old).orElse("u" + objects.incrementAndGet());
        Verdict stored = store(schema, old, name);
        if (!stored.accepted()) {
            throw new AssertionError(
                    "the 1.36 API server refused the stored object of an update case: " + stored + "\nobject: " + old);
        }
        Map<String, Object> current = get(itemPath(schema, name));
        Map<String, Object> replacement = identified(schema, object, name);
        asMap(replacement.get("metadata")).put("resourceVersion", resourceVersion(current));
        Object status = replacement.remove("status");
        Verdict updated = send("PUT", itemPath(schema, name), replacement);
        if (!updated.accepted() || status == null) {
            return updated;
        }
        return putStatus(schema, name, status);
    }

    private Verdict store(CrdSchema schema, Map<String, Object> object, String name) {
        Map<String, Object> body = identified(schema, object, name);
        Object status = body.remove("status");
        Verdict created = send("POST", collectionPath(schema), body);
        if (!created.accepted() || status == null) {
            return created;
        }
        return putStatus(schema, name, status);
    }

    private Verdict putStatus(CrdSchema schema, String name, Object status) {
        Map<String, Object> current = get(itemPath(schema, name));
        current.put("status", status);
        return send("PUT", itemPath(schema, name) + "/status", current);
    }

    private void ensureInstalled(CrdSchema schema) {
        String name = (String) asMap(schema.crd().get("metadata")).get("name");
        synchronized (installed) {
            if (installed.contains(name)) {
                return;
            }
            Verdict verdict = installCrd(schema.crd());
            if (!verdict.accepted() && verdict.code() != 409) {
                throw new AssertionError("the 1.36 API server refused CRD " + name + ": " + verdict);
            }
            installed.add(name);
        }
    }

    /** A case that sets metadata.name (a rule reads it) keeps its name; the others get a fresh one. */
    private static Optional<String> nameOf(Map<String, Object> object) {
        return Optional.ofNullable(
                        asMap(object.getOrDefault("metadata", Map.of())).get("name"))
                .map(String::valueOf);
    }

    private Map<String, Object> identified(CrdSchema schema, Map<String, Object> object, String name) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("apiVersion", group(schema) + "/" + schema.version().get("name"));
        body.put("kind", asMap(asMap(schema.crd().get("spec")).get("names")).get("kind"));
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        metadata.put("namespace", NAMESPACE);
        body.put("metadata", metadata);
        object.forEach((key, value) -> {
            if (!"metadata".equals(key)) {
                body.put(key, value);
            }
        });
        return body;
    }

    private static String group(CrdSchema schema) {
        return (String) asMap(schema.crd().get("spec")).get("group");
    }

    private static String collectionPath(CrdSchema schema) {
        String plural =
                (String) asMap(asMap(schema.crd().get("spec")).get("names")).get("plural");
        return "/apis/" + group(schema) + "/" + schema.version().get("name") + "/namespaces/" + NAMESPACE + "/"
                + plural;
    }

    private static String itemPath(CrdSchema schema, String name) {
        return collectionPath(schema) + "/" + name;
    }

    private static String resourceVersion(Map<String, Object> object) {
        return (String) asMap(object.get("metadata")).get("resourceVersion");
    }

    private Map<String, Object> get(String path) {
        Answer answer = exchange("GET", path, null);
        if (answer.code() != 200) {
            throw new AssertionError("GET " + path + ": " + verdict(answer));
        }
        return answer.body();
    }

    private Verdict send(String method, String path, Map<String, Object> body) {
        return verdict(exchange(method, path, body));
    }

    private record Answer(int code, Map<String, Object> body) {}

    private Answer exchange(String method, String path, Map<String, Object> body) {
        try {
            HttpRequest.Builder request = http.newHttpRequestBuilder()
                    .uri(server.url() + path)
                    .timeout(REQUEST_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (body != null) {
                request.method(method, "application/json", JSON.writeValueAsString(body));
            }
            HttpResponse<String> response =
                    http.sendAsync(request.build(), String.class).get(REQUEST_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            Map<String, Object> answer =
                    response.body() == null || response.body().isBlank()
                            ? Map.of()
                            : asMap(JSON.readValue(response.body(), Map.class));
            return new Answer(response.code(), answer);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode or decode JSON for " + method + " " + path, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + path, e);
        }
    }

    private static Verdict verdict(Answer response) {
        int code = response.code();
        Map<String, Object> answer = response.body();
        if (code / 100 == 2) {
            return new Verdict(code, "", List.of());
        }
        List<Violation> causes = new ArrayList<>();
        Map<String, Object> details = asMap(answer.getOrDefault("details", Map.of()));
        for (Object cause : listOrEmpty(details.get("causes"))) {
            Map<String, Object> c = asMap(cause);
            causes.add(new Violation(String.valueOf(c.getOrDefault("field", "")), String.valueOf(c.get("message"))));
        }
        return new Verdict(code, String.valueOf(answer.getOrDefault("message", "")), causes);
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a CRD", e);
        }
    }

    /** The CRD as the server stores it. */
    public Map<String, Object> crd(String name) {
        return get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name);
    }

    @Override
    public void close() {
        client.close();
        server.close();
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(file -> file.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty " + dir, e);
        }
    }
}
