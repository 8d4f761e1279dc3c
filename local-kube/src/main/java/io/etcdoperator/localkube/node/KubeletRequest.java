package io.etcdoperator.localkube.node;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 request to the kubelet port, read off the raw connection: the JDK's HttpsServer cannot hand over the
 * socket after a 101 Switching Protocols, which a port forward needs. Every response closes the connection.
 */
record KubeletRequest(
        String method,
        String path,
        Map<String, List<String>> query,
        Map<String, String> headers,
        InputStream in,
        OutputStream out) {

    private static final int MAX_HEAD = 64 * 1024;

    static KubeletRequest read(InputStream in, OutputStream out) throws IOException {
        List<String> lines = headLines(in);
        if (lines.isEmpty()) {
            throw new IOException("empty request");
        }
        String[] start = lines.getFirst().split(" ");
        if (start.length != 3) {
            throw new IOException("malformed request line");
        }
        String target = start[1];
        int mark = target.indexOf('?');
        String path = mark < 0 ? target : target.substring(0, mark);
        Map<String, String> headers = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.merge(
                        line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
                        line.substring(colon + 1).strip(),
                        (a, b) -> a + ", " + b);
            }
        }
        return new KubeletRequest(
                start[0], path, query(mark < 0 ? null : target.substring(mark + 1)), headers, in, out);
    }

    /** The first value of a query parameter, or null. */
    String parameter(String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    void reply(int status, String message) throws IOException {
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + status + " " + reason(status) + "\r\nContent-Type: text/plain; charset=utf-8\r\n"
                        + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    /** A body of unknown length (a followed log): it ends when the connection closes. */
    OutputStream streamBody(String contentType) throws IOException {
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + contentType + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        return out;
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            default -> "Error";
        };
    }

    private static List<String> headLines(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int total = 0;
        int b;
        while ((b = in.read()) >= 0) {
            if (++total > MAX_HEAD) {
                throw new IOException("request head too large");
            }
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                if (text.endsWith("\r")) {
                    text = text.substring(0, text.length() - 1);
                }
                if (text.isEmpty()) {
                    return lines;
                }
                lines.add(text);
                line.reset();
            } else {
                line.write(b);
            }
        }
        throw new IOException("connection closed inside the request head");
    }

    static Map<String, List<String>> query(String raw) {
        Map<String, List<String>> query = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "true" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            query.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        }
        return query;
    }
}
