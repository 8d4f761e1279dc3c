package io.etcdoperator.e2e;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * {@code @ExtendWith(LocalKubernetesExtension.class)} gives a test an {@link E2eEnvironment} parameter: one local
 * Kubernetes with the operator for the whole run, started on first use and stopped when the run ends. After each
 * class the namespaces it made are deleted.
 */
public final class LocalKubernetesExtension implements ParameterResolver, AfterAllCallback {

    @Override
    public void afterAll(ExtensionContext context) {
        E2eEnvironment env = store(context).get(E2eEnvironment.class, E2eEnvironment.class);
        if (env != null) {
            env.deleteNamespaces();
        }
    }

    private static ExtensionContext.Store store(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.create(LocalKubernetesExtension.class));
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == E2eEnvironment.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return store(context)
                .computeIfAbsent(
                        E2eEnvironment.class,
                        key -> {
                            try {
                                return E2eEnvironment.start();
                            } catch (Exception e) {
                                throw new IllegalStateException(
                                        "local Kubernetes for e2e tests did not start: " + e.getMessage(), e);
                            }
                        },
                        E2eEnvironment.class);
    }
}
