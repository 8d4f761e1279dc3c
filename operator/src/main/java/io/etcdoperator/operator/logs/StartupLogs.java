package io.etcdoperator.operator.logs;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logback's first configuration in this binary (found through META-INF/services): text at info, as before the flags
 * existed. It ends logback's search, so a logback.xml that some jar carries cannot change the operator's output.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_LOW_PRIORITY)
public final class StartupLogs extends ContextAwareBase implements Configurator {

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        LogConfiguration.bridgeJavaUtilLogging();
        LogConfiguration.DEFAULT.applyTo(context, System.err);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
