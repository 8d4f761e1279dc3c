package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.etcdoperator.api.schema.SchemaPatch;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;

/** A cert-manager Issuer or ClusterIssuer. */
@SchemaCustomizer(value = SchemaPatch.class, input = """
    properties:
      kind: {enum: ["Issuer", "ClusterIssuer"]}
    """)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class IssuerRef {

    public static final String KIND_ISSUER = "Issuer";
    public static final String KIND_CLUSTER_ISSUER = "ClusterIssuer";

    @Required
    @Size(min = 1)
    @JsonPropertyDescription("Name of the Issuer or ClusterIssuer.")
    private String name;

    @Default("Issuer")
    @JsonPropertyDescription("Issuer (in the cluster's namespace) or ClusterIssuer; default Issuer.")
    private String kind;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof IssuerRef that)) {
            return false;
        }
        return Objects.equals(name, that.name) && Objects.equals(kind, that.kind);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, kind);
    }
}
