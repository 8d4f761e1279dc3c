package io.etcdoperator.operator.informer;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;

/**
 * Every short string the operator's client reads is interned: at 1000 clusters the informers' caches held 740 000
 * strings (53 MB), most of them repeats of a namespace, label, owner, image, condition or timestamp; one copy each
 * is enough (docs/benchmarks.md). Long values (certificates, Secret data, command lines) are left as they are.
 */
public final class InternedStrings extends SimpleModule {

    /** Longer strings are rarely repeated and costly to hash. */
    static final int LONGEST = 100;

    public InternedStrings() {
        super("etcd-operator-interned-strings");
        addDeserializer(String.class, new Interning());
    }

    private static final class Interning extends StringDeserializer {
        @Override
        public String deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            String value = super.deserialize(parser, context);
            return value != null && value.length() <= LONGEST ? value.intern() : value;
        }
    }
}
