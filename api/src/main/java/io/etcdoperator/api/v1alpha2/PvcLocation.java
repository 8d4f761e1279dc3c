package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("A file location inside a PersistentVolumeClaim.")
public class PvcLocation {

    @Required
    @Size(min = 1)
    @JsonPropertyDescription("Name of the PersistentVolumeClaim, in the same namespace.")
    private String claimName;

    @JsonPropertyDescription("Path inside the claim. For a snapshot destination, a directory prefix: the file is "
            + "<subPath>/<snapshot name>.db. For a restore source, the exact path of the snapshot file.")
    private String subPath;

    public String getClaimName() {
        return claimName;
    }

    public void setClaimName(String claimName) {
        this.claimName = claimName;
    }

    public String getSubPath() {
        return subPath;
    }

    public void setSubPath(String subPath) {
        this.subPath = subPath;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PvcLocation that)) {
            return false;
        }
        return Objects.equals(claimName, that.claimName) && Objects.equals(subPath, that.subPath);
    }

    @Override
    public int hashCode() {
        return Objects.hash(claimName, subPath);
    }
}
