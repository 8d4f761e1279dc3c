package io.etcdoperator.localkube.simetcd;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/** A request etcd would refuse, with etcd's own gRPC code and message (the operator classifies by the message). */
public final class EtcdRefusal extends RuntimeException {

    private final Status.Code code;

    EtcdRefusal(Status.Code code, String message) {
        super(message);
        this.code = code;
    }

    static EtcdRefusal memberNotFound() {
        return new EtcdRefusal(Status.Code.NOT_FOUND, "etcdserver: member not found");
    }

    static EtcdRefusal precondition(String message) {
        return new EtcdRefusal(Status.Code.FAILED_PRECONDITION, "etcdserver: " + message);
    }

    static EtcdRefusal unavailable(String message) {
        return new EtcdRefusal(Status.Code.UNAVAILABLE, "etcdserver: " + message);
    }

    public Status.Code code() {
        return code;
    }

    StatusRuntimeException asStatus() {
        return Status.fromCode(code).withDescription(getMessage()).asRuntimeException();
    }
}
