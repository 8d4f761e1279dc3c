package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import java.util.Objects;

/**
 * Additive (not in the reference API): the operator runs a small CA for this cluster and issues the server, peer and
 * operator-client certificates itself, renews leaves when a third of their lifetime remains and rotates the CA,
 * restarting members one at a time. Client mTLS and peer TLS are both on. Not to be combined with client or peer.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class OperatorIssuedTls {

    static final String DURATION = "^([0-9]+(\\.[0-9]+)?(h|m|s))+$";

    /** Lifetime of each CA, as a Go duration (default five years). */
    @Pattern(DURATION)
    @Default("43800h")
    @JsonPropertyDescription("Lifetime of each CA the operator creates, as a Go duration (for example 43800h); "
            + "default 43800h, five years.")
    private String caDuration;

    /** Lifetime of each leaf certificate, as a Go duration (default 90 days); must be shorter than caDuration. */
    @Pattern(DURATION)
    @Default("2160h")
    @JsonPropertyDescription("Lifetime of each leaf certificate, as a Go duration; default 2160h, 90 days. Must be "
            + "shorter than caDuration. Leaves are renewed when a third of their lifetime remains.")
    private String certificateDuration;

    public String getCaDuration() {
        return caDuration;
    }

    public void setCaDuration(String caDuration) {
        this.caDuration = caDuration;
    }

    public String getCertificateDuration() {
        return certificateDuration;
    }

    public void setCertificateDuration(String certificateDuration) {
        this.certificateDuration = certificateDuration;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof OperatorIssuedTls that)) {
            return false;
        }
        return Objects.equals(caDuration, that.caDuration)
                && Objects.equals(certificateDuration, that.certificateDuration);
    }

    @Override
    public int hashCode() {
        return Objects.hash(caDuration, certificateDuration);
    }
}
