package io.etcdoperator.pki;

/** A certificate could not be made, read or verified. Messages name the object, never key material. */
public class PkiException extends RuntimeException {

    public PkiException(String message, Throwable cause) {
        super(message, cause);
    }

    public PkiException(String message) {
        super(message);
    }
}
