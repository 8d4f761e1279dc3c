package io.etcdoperator.snapshot;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * How to reach one bucket on any S3-compatible endpoint. {@link #toString()} never shows the secret key.
 *
 * @param partSize bytes per multipart part: the agent's memory for the upload is one part
 */
public record S3Settings(
        URI endpoint,
        String bucket,
        String region,
        boolean forcePathStyle,
        String accessKeyId,
        String secretAccessKey,
        int partSize) {

    public static final String DEFAULT_REGION = "us-east-1";
    public static final int DEFAULT_PART_SIZE = 16 << 20;
    public static final int MIN_PART_SIZE = 5 << 20;
    static final String ACCESS_KEY_ID = "AWS_ACCESS_KEY_ID";
    static final String SECRET_ACCESS_KEY = "AWS_SECRET_ACCESS_KEY";

    public S3Settings {
        if (bucket == null || bucket.isBlank()) {
            throw new SnapshotFailure(SnapshotFailure.Reason.INVALID_REQUEST, "an S3 bucket is required");
        }
        if (endpoint == null || endpoint.getScheme() == null || endpoint.getHost() == null) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST, "the S3 endpoint must be an absolute URL, got " + endpoint);
        }
        region = region == null || region.isBlank() ? DEFAULT_REGION : region;
        if (partSize < MIN_PART_SIZE) {
            throw new SnapshotFailure(SnapshotFailure.Reason.INVALID_REQUEST, "S3 parts must be at least 5 MiB");
        }
    }

    /**
     * Credentials from a mounted Secret directory (files AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), else from the
     * environment variables of the same names.
     */
    public static S3Settings withCredentials(
            URI endpoint,
            String bucket,
            String region,
            boolean forcePathStyle,
            Optional<Path> secretDir,
            Map<String, String> env,
            int partSize) {
        String id = secretDir.map(d -> readKey(d, ACCESS_KEY_ID)).orElse(env.get(ACCESS_KEY_ID));
        String secret = secretDir.map(d -> readKey(d, SECRET_ACCESS_KEY)).orElse(env.get(SECRET_ACCESS_KEY));
        if (id == null || id.isBlank() || secret == null || secret.isBlank()) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST,
                    "no S3 credentials: set " + ACCESS_KEY_ID + " and " + SECRET_ACCESS_KEY
                            + secretDir.map(d -> " as files in " + d).orElse(" in the environment"));
        }
        return new S3Settings(endpoint, bucket, region, forcePathStyle, id.strip(), secret.strip(), partSize);
    }

    /**
     * A client for this endpoint. Checksums are sent only when an operation requires them: several S3-compatible
     * servers reject the SDK's default trailing checksums.
     */
    public S3Client client() {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(Region.of(region))
                .forcePathStyle(forcePathStyle)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secretAccessKey)))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(10))
                        .socketTimeout(Duration.ofMinutes(2))
                        .build())
                .build();
    }

    @Override
    public String toString() {
        return "S3Settings[endpoint=" + endpoint + ", bucket=" + bucket + ", region=" + region + ", forcePathStyle="
                + forcePathStyle + ", accessKeyId=" + accessKeyId + ", partSize=" + partSize + "]";
    }

    private static String readKey(Path dir, String name) {
        Path file = dir.resolve(name);
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST,
                    "cannot read " + file + " from the S3 credentials Secret: "
                            + e.getClass().getSimpleName());
        }
    }
}
