package io.etcdoperator.kubectl;

/** A failure the plugin explains in one line to the person at the terminal (exit code 1, no stack trace). */
final class PluginException extends RuntimeException {

    PluginException(String message) {
        super(message);
    }

    PluginException(String message, Throwable cause) {
        super(message, cause);
    }
}
