package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** The most recent scheduled snapshot that failed, and why. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ScheduleFailure {

    @JsonPropertyDescription("When the failed snapshot finished, RFC 3339.")
    private String time;

    @JsonPropertyDescription("Name of the failed EtcdSnapshot.")
    private String snapshot;

    @JsonPropertyDescription("The failed snapshot's reason, in CamelCase.")
    private String reason;

    @JsonPropertyDescription("The failed snapshot's message, for people.")
    private String message;

    public String getTime() {
        return time;
    }

    public void setTime(String time) {
        this.time = time;
    }

    public String getSnapshot() {
        return snapshot;
    }

    public void setSnapshot(String snapshot) {
        this.snapshot = snapshot;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ScheduleFailure that)) {
            return false;
        }
        return Objects.equals(time, that.time)
                && Objects.equals(snapshot, that.snapshot)
                && Objects.equals(reason, that.reason)
                && Objects.equals(message, that.message);
    }

    @Override
    public int hashCode() {
        return Objects.hash(time, snapshot, reason, message);
    }
}
