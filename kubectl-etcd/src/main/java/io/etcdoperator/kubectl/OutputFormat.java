package io.etcdoperator.kubectl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The {@code -o/--output} flag of the commands that print objects: the table people read (default), or the same
 * data as JSON or YAML for scripts. Structured output carries raw numbers (bytes, not "2.2 MB").
 */
final class OutputFormat {

    enum Kind {
        TABLE,
        JSON,
        YAML
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .build());

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            converter = KindConverter.class,
            completionCandidates = Names.class,
            description = "Output format: table (default), json or yaml.")
    Kind kind = Kind.TABLE;

    /** The table as is, or the document serialized; the table is only built when it is wanted. */
    String render(Supplier<String> table, Object document) {
        return switch (kind) {
            case TABLE -> table.get();
            case JSON -> write(JSON, document) + "\n";
            case YAML -> write(YAML, document);
        };
    }

    private static String write(ObjectMapper mapper, Object document) {
        try {
            return mapper.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot serialize the output", e);
        }
    }

    /** What completion offers after {@code -o}: the names as typed, not the enum's. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(Kind.values())
                    .map(k -> k.name().toLowerCase(Locale.ROOT))
                    .iterator();
        }
    }

    /** Lower-case names on the command line, like kubectl's {@code -o json}. */
    static final class KindConverter implements CommandLine.ITypeConverter<Kind> {
        @Override
        public Kind convert(String value) {
            try {
                return Kind.valueOf(value.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(
                        "'" + value + "' is not an output format: use table, json or " + "yaml");
            }
        }
    }
}
