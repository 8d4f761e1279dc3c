package io.etcdoperator.api.crd;

import java.util.regex.Pattern;

/** One x-kubernetes-validations entry of a CRD schema, with the path of the schema node that carries it. */
public record CelRule(String path, String rule, String message) {

    private static final Pattern OLD_SELF = Pattern.compile("\\boldSelf\\b");

    /** Transition rules compare against the stored object, so the API server runs them on update only. */
    public boolean isTransition() {
        return OLD_SELF.matcher(rule).find();
    }
}
