package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.etcd.jetcd.api.ResponseHeader;
import io.etcd.jetcd.api.StatusResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** jetcd 0.8.5's StatusResponse predates etcd 3.4's fields; they must still be read from the wire. */
class EndpointStatusDecodingTest {

    @Test
    void readsFieldsNewerThanJetcdsProto() throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(wire);
        StatusResponse.newBuilder()
                .setHeader(ResponseHeader.newBuilder()
                        .setMemberId(0xaaL)
                        .setClusterId(7)
                        .setRevision(64))
                .setVersion("3.5.16")
                .setDbSize(20480)
                .setLeader(0xbbL)
                .setRaftIndex(42)
                .setRaftTerm(3)
                .build()
                .writeTo(out);
        out.writeUInt64(7, 41); // raftAppliedIndex
        out.writeString(8, "memberID:170 alarm:NOSPACE"); // errors
        out.writeInt64(9, 16384); // dbSizeInUse
        out.writeBool(10, true); // isLearner
        out.flush();

        EndpointStatus status =
                DirectRpc.endpointStatus(StatusResponse.parseFrom(ByteString.copyFrom(wire.toByteArray())));

        assertThat(status)
                .isEqualTo(new EndpointStatus(
                        "3.5.16",
                        new MemberId(0xaa),
                        new MemberId(0xbb),
                        42,
                        41,
                        3,
                        20480,
                        16384,
                        64,
                        true,
                        List.of("memberID:170 alarm:NOSPACE")));
        assertThat(status.isLeader()).isFalse();
    }

    @Test
    void olderServerWithoutTheNewFieldsReadsAsVoterWithZeros() {
        StatusResponse response = StatusResponse.newBuilder()
                .setHeader(ResponseHeader.newBuilder().setMemberId(5))
                .setLeader(5)
                .setVersion("3.4.23")
                .build();

        EndpointStatus status = DirectRpc.endpointStatus(response);

        assertThat(status.learner()).isFalse();
        assertThat(status.raftAppliedIndex()).isZero();
        assertThat(status.errors()).isEmpty();
        assertThat(status.isLeader()).isTrue();
    }
}
