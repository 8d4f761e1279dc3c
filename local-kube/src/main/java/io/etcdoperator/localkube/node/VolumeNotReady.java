package io.etcdoperator.localkube.node;

/** Something a Pod needs before it can start is not there yet; the kubelet retries, and so do we. */
final class VolumeNotReady extends RuntimeException {

    VolumeNotReady(String message) {
        super(message);
    }
}
