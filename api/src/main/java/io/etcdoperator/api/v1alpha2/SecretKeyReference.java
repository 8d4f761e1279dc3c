package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;

/** One entry of a Secret in the same namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretKeyReference {

    @Required
    @Size(min = 1)
    @JsonPropertyDescription("Name of the Secret, in the same namespace.")
    private String name;

    @Required
    @Pattern(SchemaPatterns.SECRET_DATA_KEY)
    @JsonPropertyDescription("Key of the entry within the Secret.")
    private String key;

    public SecretKeyReference() {}

    public SecretKeyReference(String name, String key) {
        this.name = name;
        this.key = key;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SecretKeyReference that)) {
            return false;
        }
        return Objects.equals(name, that.name) && Objects.equals(key, that.key);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, key);
    }
}
