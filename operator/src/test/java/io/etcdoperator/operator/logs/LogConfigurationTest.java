package io.etcdoperator.operator.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.LoggerContext;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdoperator.operator.config.OperatorConfig.InvalidConfigException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.MDC;

class LogConfigurationTest {

    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final LoggerContext context = new LoggerContext();

    /** A context of its own, writing to {@link #out}; the MDC is the process's, which LogContext fills. */
    private Logger logger(LogFormat format, LogLevel level, String name) {
        context.setMDCAdapter(MDC.getMDCAdapter());
        new LogConfiguration(format, level).applyTo(context, out);
        return context.getLogger(name);
    }

    private List<String> lines() {
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void aJsonLineHoldsTheFieldsTheMdcAndTheException() throws Exception {
        Logger log = logger(LogFormat.JSON, LogLevel.INFO, "io.etcdoperator.operator.cluster.ClusterReport");
        try (var names = LogContext.of("prod", "main").with("member", "main-1")) {
            log.atWarn()
                    .addKeyValue("reason", "QuorumLost")
                    .addKeyValue("replicas", 3)
                    .setCause(new IllegalStateException("etcd said \"no\"\non two lines"))
                    .log("quorum lost");
        }

        assertThat(lines()).hasSize(1);
        JsonNode line = JSON.readTree(lines().getFirst());
        assertThat(line.get("time").asText()).endsWith("Z");
        assertThat(Instant.parse(line.get("time").asText()))
                .isBetween(Instant.now().minusSeconds(60), Instant.now());
        assertThat(line.get("level").asText()).isEqualTo("warn");
        assertThat(line.get("logger").asText()).isEqualTo("io.etcdoperator.operator.cluster.ClusterReport");
        assertThat(line.get("message").asText()).isEqualTo("quorum lost");
        assertThat(line.get("reason").asText()).isEqualTo("QuorumLost");
        assertThat(line.get("replicas").isInt()).isTrue();
        assertThat(line.get("namespace").asText()).isEqualTo("prod");
        assertThat(line.get("cluster").asText()).isEqualTo("main");
        assertThat(line.get("member").asText()).isEqualTo("main-1");
        JsonNode exception = line.get("exception");
        assertThat(exception.get("class").asText()).isEqualTo("java.lang.IllegalStateException");
        assertThat(exception.get("message").asText()).isEqualTo("etcd said \"no\"\non two lines");
        assertThat(exception.get("stack").asText()).contains("at io.etcdoperator.operator.logs.LogConfigurationTest");
    }

    @Test
    void aLinesOwnKeyWinsOverTheMdcAndNoKeyIsWrittenTwice() throws Exception {
        Logger log = logger(LogFormat.JSON, LogLevel.INFO, "io.etcdoperator.x");
        try (var names = LogContext.of("prod", "main")) {
            log.atInfo()
                    .addKeyValue("cluster", "other")
                    .addKeyValue("message", "not the message")
                    .log("about another");
        }
        log.info("after the reconcile");

        JsonNode first = JSON.readTree(lines().get(0));
        assertThat(first.get("cluster").asText()).isEqualTo("other");
        assertThat(first.get("message").asText()).isEqualTo("about another");
        assertThat(JSON.readTree(lines().get(1)).has("namespace"))
                .as("the MDC is cleared on close")
                .isFalse();
    }

    @Test
    void aTextLineKeepsTheSlf4jSimpleLookWithTheMdcAfterTheLinesOwnKeys() {
        Logger log = logger(LogFormat.TEXT, LogLevel.INFO, "io.etcdoperator.operator.cluster.ClusterReport");
        try (var names = LogContext.of("prod", "main")) {
            log.atInfo()
                    .addKeyValue("cluster", "main")
                    .addKeyValue("reason", "Available")
                    .log("target latched");
        }

        // FleetTimeline's pattern, which read slf4j-simple's lines
        assertThat(lines())
                .singleElement()
                .satisfies(line -> assertThat(line)
                        .matches(Pattern.compile(
                                "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z \\[[^]]+] INFO ClusterReport - cluster=main "
                                        + "reason=Available namespace=prod target latched$")));
    }

    @Test
    void warnDropsInfoLines() {
        Logger log = logger(LogFormat.TEXT, LogLevel.WARN, "io.etcdoperator.x");
        log.info("dropped");
        log.warn("kept");

        assertThat(lines()).singleElement().satisfies(line -> assertThat(line).endsWith("WARN x - kept"));
    }

    @Test
    void librariesLogWarningsOnlyUnlessDebugIsAsked() {
        logger(LogFormat.TEXT, LogLevel.INFO, "io.etcdoperator.x").info("ours");
        context.getLogger("io.fabric8.kubernetes.client.Informer").info("theirs at info");
        context.getLogger("io.javaoperatorsdk.operator.Operator").warn("theirs at warn");
        assertThat(lines()).hasSize(2).noneMatch(line -> line.contains("theirs at info"));

        out.reset();
        logger(LogFormat.TEXT, LogLevel.TRACE, "io.etcdoperator.x").trace("ours at trace");
        context.getLogger("io.fabric8.kubernetes.client.http.HttpLoggingInterceptor")
                .trace("a request body");
        context.getLogger("io.fabric8.kubernetes.client.Informer").debug("theirs at debug");
        assertThat(lines()).hasSize(2).noneMatch(line -> line.contains("a request body"));
    }

    @Test
    void nestedContextsPutBackTheOuterNames() {
        try (var outer = LogContext.of("prod", "main")) {
            try (var inner = LogContext.of("prod", "other").with("snapshot", "nightly")) {
                assertThat(MDC.get("cluster")).isEqualTo("other");
            }
            assertThat(MDC.get("cluster")).isEqualTo("main");
            assertThat(MDC.get("snapshot")).isNull();
        }
        assertThat(MDC.get("cluster")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "yaml", "JSON", " json"})
    void anUnknownFormatNamesItsFlag(String value) {
        assertThatThrownBy(() -> LogConfiguration.of(value, "info"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("--log-format")
                .hasMessageContaining("text, json");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "verbose", "INFO", "warning"})
    void anUnknownLevelNamesItsFlag(String value) {
        assertThatThrownBy(() -> LogConfiguration.of("json", value))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("--log-level")
                .hasMessageContaining("error, warn, info, debug, trace");
    }
}
