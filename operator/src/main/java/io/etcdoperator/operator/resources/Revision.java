package io.etcdoperator.operator.resources;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/** A short, stable hash of objects' JSON (map keys sorted), used to tell whether a Pod was built from the same input. */
final class Revision {

  private static final ObjectMapper JSON = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  private Revision() {}

  static String of(Object... parts) {
    try {
      byte[] json = JSON.writeValueAsBytes(Arrays.asList(parts));
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(json);
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (JsonProcessingException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot hash a Pod template", e);
    }
  }

}
