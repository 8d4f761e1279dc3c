package io.etcdoperator.snapshot;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Uploads what is written to it as the parts of one multipart upload, holding at most one part in memory. The
 * upload happens on the writing thread, so a slow S3 slows the writer down instead of filling memory.
 */
final class MultipartUploadStream extends OutputStream {

    private final S3Client s3;
    private final String bucket;
    private final String key;
    private final String uploadId;
    private final byte[] part;
    private final List<CompletedPart> completed = new ArrayList<>();
    private int filled;

    MultipartUploadStream(S3Client s3, String bucket, String key, String uploadId, int partSize) {
        this.s3 = s3;
        this.bucket = bucket;
        this.key = key;
        this.uploadId = uploadId;
        this.part = new byte[partSize];
    }

    @Override
    public void write(int b) {
        part[filled++] = (byte) b;
        if (filled == part.length) {
            upload();
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        while (len > 0) {
            int n = Math.min(len, part.length - filled);
            System.arraycopy(b, off, part, filled, n);
            filled += n;
            off += n;
            len -= n;
            if (filled == part.length) {
                upload();
            }
        }
    }

    /** Uploads the last (possibly short) part and returns every part in order, ready for CompleteMultipartUpload. */
    List<CompletedPart> finish() {
        if (filled > 0 || completed.isEmpty()) {
            upload();
        }
        return List.copyOf(completed);
    }

    private void upload() {
        int number = completed.size() + 1;
        int length = filled;
        var response = s3.uploadPart(
                r -> r.bucket(bucket)
                        .key(key)
                        .uploadId(uploadId)
                        .partNumber(number)
                        .contentLength((long) length),
                RequestBody.fromContentProvider(
                        () -> new ByteArrayInputStream(part, 0, length), length, "application/octet-stream"));
        completed.add(
                CompletedPart.builder().partNumber(number).eTag(response.eTag()).build());
        filled = 0;
    }
}
