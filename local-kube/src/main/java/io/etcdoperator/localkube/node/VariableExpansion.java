package io.etcdoperator.localkube.node;

import java.util.Map;

/**
 * Kubernetes' {@code $(VAR)} expansion in command, args and env values: a defined variable is replaced,
 * {@code $$} escapes a dollar, and an undefined reference is kept as written.
 */
final class VariableExpansion {

    private VariableExpansion() {}

    static String expand(String input, Map<String, String> variables) {
        StringBuilder out = new StringBuilder(input.length());
        int i = 0;
        while (i < input.length()) {
            char c = input.charAt(i);
            if (c != '$' || i + 1 >= input.length()) {
                out.append(c);
                i++;
                continue;
            }
            char next = input.charAt(i + 1);
            if (next == '$') {
                out.append('$');
                i += 2;
            } else if (next == '(') {
                int close = input.indexOf(')', i + 2);
                if (close < 0) {
                    out.append(input, i, input.length());
                    break;
                }
                String name = input.substring(i + 2, close);
                String value = variables.get(name);
                out.append(value != null ? value : input.substring(i, close + 1));
                i = close + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
