package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** The stored snapshot file, and the member it was streamed from. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The stored snapshot file and the member it was streamed from.")
public class SnapshotArtifact {

    @JsonPropertyDescription(
            "Location of the stored file: s3://<bucket>/<key> for S3, or its place inside the claim " + "for a PVC.")
    private String uri;

    @JsonPropertyDescription("Size of the stored file in bytes.")
    private Long sizeBytes;

    @JsonPropertyDescription("sha256 of the stored bytes, as sha256:<hex>; a restore checks the file against it.")
    private String checksum;

    /** Client URL of the member streamed from; absent when a retried Job found the object already stored. */
    @JsonPropertyDescription("Client URL of the member the snapshot was streamed from; absent when a retried Job "
            + "found the file already stored.")
    private String sourceEndpoint;

    @JsonProperty("sourceMemberID")
    @JsonPropertyDescription("etcd member id, in hexadecimal, of the member the snapshot was streamed from.")
    private String sourceMemberID;

    /** The revision the source member reported just before streaming: the snapshot holds at least this one. */
    @JsonPropertyDescription("etcd revision the source member reported just before streaming: the snapshot holds at "
            + "least this revision.")
    private Long revision;

    @JsonPropertyDescription("crc32 hash of the stored database, in hexadecimal, as etcdutl snapshot status reports "
            + "it; recorded at save time when spec.verify is true.")
    private String dbHash;

    @JsonPropertyDescription("Newest revision in the stored database, as etcdutl snapshot status reports it; recorded "
            + "at save time when spec.verify is true.")
    private Long dbRevision;

    @JsonPropertyDescription("Entries in all of the stored database's buckets (etcdutl snapshot status TOTAL KEYS); "
            + "recorded at save time when spec.verify is true.")
    private Long dbTotalKeys;

    public String getDbHash() {
        return dbHash;
    }

    public void setDbHash(String dbHash) {
        this.dbHash = dbHash;
    }

    public Long getDbRevision() {
        return dbRevision;
    }

    public void setDbRevision(Long dbRevision) {
        this.dbRevision = dbRevision;
    }

    public Long getDbTotalKeys() {
        return dbTotalKeys;
    }

    public void setDbTotalKeys(Long dbTotalKeys) {
        this.dbTotalKeys = dbTotalKeys;
    }

    public String getUri() {
        return uri;
    }

    public void setUri(String uri) {
        this.uri = uri;
    }

    public Long getSizeBytes() {
        return sizeBytes;
    }

    public void setSizeBytes(Long sizeBytes) {
        this.sizeBytes = sizeBytes;
    }

    public String getChecksum() {
        return checksum;
    }

    public void setChecksum(String checksum) {
        this.checksum = checksum;
    }

    public String getSourceEndpoint() {
        return sourceEndpoint;
    }

    public void setSourceEndpoint(String sourceEndpoint) {
        this.sourceEndpoint = sourceEndpoint;
    }

    public String getSourceMemberID() {
        return sourceMemberID;
    }

    public void setSourceMemberID(String sourceMemberID) {
        this.sourceMemberID = sourceMemberID;
    }

    public Long getRevision() {
        return revision;
    }

    public void setRevision(Long revision) {
        this.revision = revision;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SnapshotArtifact that)) {
            return false;
        }
        return Objects.equals(uri, that.uri)
                && Objects.equals(sizeBytes, that.sizeBytes)
                && Objects.equals(checksum, that.checksum)
                && Objects.equals(sourceEndpoint, that.sourceEndpoint)
                && Objects.equals(sourceMemberID, that.sourceMemberID)
                && Objects.equals(revision, that.revision)
                && Objects.equals(dbHash, that.dbHash)
                && Objects.equals(dbRevision, that.dbRevision)
                && Objects.equals(dbTotalKeys, that.dbTotalKeys);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                uri, sizeBytes, checksum, sourceEndpoint, sourceMemberID, revision, dbHash, dbRevision, dbTotalKeys);
    }
}
