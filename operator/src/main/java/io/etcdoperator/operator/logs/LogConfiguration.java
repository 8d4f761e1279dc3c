package io.etcdoperator.operator.logs;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.jul.LevelChangePropagator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.LayoutBase;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The operator's logging, built in code from {@code --log-format} and {@code --log-level}: no logback.xml in the image
 * to keep in step with the flags. Lines go to stderr, where slf4j-simple wrote them; the agent's stdout is its result.
 */
public record LogConfiguration(LogFormat format, LogLevel level) {

    /** What every entrypoint starts with (operator, agent, tests), before any flag is read. */
    public static final LogConfiguration DEFAULT = new LogConfiguration(LogFormat.TEXT, LogLevel.INFO);

    /** From the flags' values; a bad one throws an InvalidConfigException naming its flag. */
    public static LogConfiguration of(String format, String level) {
        return new LogConfiguration(LogFormat.of(format), LogLevel.of(level));
    }

    /** Reconfigures the process's logging. */
    public void apply() {
        applyTo((LoggerContext) LoggerFactory.getILoggerFactory(), System.err);
    }

    /** Replaces whatever {@code context} had: one appender writing lines to {@code out}, and this level's levels. */
    public void applyTo(LoggerContext context, OutputStream out) {
        context.reset();
        // java.util.logging (gRPC, the JDK) asks logback's levels, so a dropped line is never formatted first
        var julLevels = new LevelChangePropagator();
        julLevels.setContext(context);
        julLevels.setResetJUL(true);
        julLevels.start();
        context.addListener(julLevels);

        LayoutBase<ILoggingEvent> layout = format == LogFormat.JSON ? new JsonLayout() : new TextLayout();
        layout.setContext(context);
        layout.start();
        var encoder = new LayoutWrappingEncoder<ILoggingEvent>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        var appender = new OutputStreamAppender<ILoggingEvent>();
        appender.setContext(context);
        appender.setName(format.flagValue());
        appender.setEncoder(encoder);
        appender.setOutputStream(new KeptOpen(out));
        appender.start();

        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(level.libraries());
        root.addAppender(appender);
        context.getLogger(LogLevel.PROJECT_LOGGERS).setLevel(level.project());
    }

    /** Routes java.util.logging into slf4j once per process, in place of its own console handler. */
    static void bridgeJavaUtilLogging() {
        if (!SLF4JBridgeHandler.isInstalled()) {
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
    }

    /** Reconfiguring stops the old appender, which closes its stream: stderr must survive that. */
    private static final class KeptOpen extends FilterOutputStream {

        KeptOpen(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            out.write(bytes, offset, length);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
