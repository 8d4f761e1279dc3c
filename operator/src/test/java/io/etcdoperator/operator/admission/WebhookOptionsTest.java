package io.etcdoperator.operator.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdoperator.operator.config.OperatorConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The webhook flags: off unless bound, and a bad address or no operator identity stops the start. */
class WebhookOptionsTest {

    static WebhookOptions parse(String... args) {
        var options = new WebhookOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    @Test
    void noWebhookWithoutABindAddress() throws Exception {
        assertThat(parse().start(null, List.of())).isEmpty();
    }

    @Test
    void aBadAddressIsAConfigurationError() {
        assertThatThrownBy(() -> parse("--webhook-bind-address=9443", "--webhook-operator-user=u")
                        .start(null, List.of()))
                .isInstanceOf(OperatorConfig.InvalidConfigException.class)
                .hasMessageContaining("--webhook-bind-address");
    }

    @Test
    void theOperatorsIdentityIsRequired() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("SERVICE_ACCOUNT_NAME") == null);
        assertThatThrownBy(() -> parse("--webhook-bind-address=:0").start(null, List.of()))
                .isInstanceOf(OperatorConfig.InvalidConfigException.class)
                .hasMessageContaining("--webhook-operator-user");
    }
}
