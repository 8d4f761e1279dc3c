package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Compares an object's YAML with {@code src/test/resources/golden/<name>.yaml}. With {@code -Dgolden.update=true} the
 * file is rewritten and the test fails, so a regenerated golden is always looked at before it is committed.
 */
public final class Golden {

    static final Path DIR = Path.of(System.getProperty("basedir", ""), "src", "test", "resources", "golden");

    private Golden() {}

    public static void assertMatches(String name, Object actual) {
        Path file = DIR.resolve(name + ".yaml");
        String rendered = normalize(Serialization.asYaml(actual));
        if (Boolean.getBoolean("golden.update")) {
            write(file, rendered);
            fail("golden updated: " + file + " (review the diff, then rerun without -Dgolden.update)");
        }
        if (!Files.exists(file)) {
            fail("no golden " + file + "; create it with -Dgolden.update=true and review it");
        }
        String expected = normalize(read(file));
        assertThat(rendered)
                .as("golden %s differs from line %d", file, firstDifferentLine(expected, rendered))
                .isEqualTo(expected);
    }

    /**
     * Keys sorted at every level (Map.of iteration order changes from run to run), LF line endings, no trailing
     * blanks. Sequence order is kept: etcd flags and ports are ordered.
     */
    static String normalize(String yaml) {
        JsonNode tree = Serialization.unmarshal(yaml, JsonNode.class);
        String text = Serialization.asYaml(sorted(tree)).replace("\r\n", "\n");
        return text.lines().map(String::stripTrailing).collect(Collectors.joining("\n", "", "\n"));
    }

    private static JsonNode sorted(JsonNode node) {
        if (node instanceof ObjectNode object) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            List<String> keys = new ArrayList<>();
            object.fieldNames().forEachRemaining(keys::add);
            keys.stream().sorted().forEach(k -> out.set(k, sorted(object.get(k))));
            return out;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            array.forEach(e -> out.add(sorted(e)));
            return out;
        }
        return node;
    }

    private static int firstDifferentLine(String expected, String actual) {
        List<String> e = expected.lines().toList();
        List<String> a = actual.lines().toList();
        int i = 0;
        while (i < e.size() && i < a.size() && e.get(i).equals(a.get(i))) {
            i++;
        }
        return i + 1;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
