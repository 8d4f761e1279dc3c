package io.etcdoperator.api.crd;

/** One reason the API server would refuse an object: the field path and the message it would report. */
public record Violation(String path, String message) {}
