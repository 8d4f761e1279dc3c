package io.etcdoperator.api.crd;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes resource quantity as the API server's CEL quantity() library sees it: an exact decimal amount.
 * Accepts decimal SI suffixes (n, u, m, k, M, G, T, P, E), binary suffixes (Ki..Ei) and decimal exponents (1e3).
 */
public record CelQuantity(String text, BigDecimal amount) implements Comparable<CelQuantity> {

    private static final Pattern GRAMMAR = Pattern.compile(
            "([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?");

    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("n", BigDecimal.ONE.scaleByPowerOfTen(-9)),
            Map.entry("u", BigDecimal.ONE.scaleByPowerOfTen(-6)),
            Map.entry("m", BigDecimal.ONE.scaleByPowerOfTen(-3)),
            Map.entry("k", BigDecimal.ONE.scaleByPowerOfTen(3)),
            Map.entry("M", BigDecimal.ONE.scaleByPowerOfTen(6)),
            Map.entry("G", BigDecimal.ONE.scaleByPowerOfTen(9)),
            Map.entry("T", BigDecimal.ONE.scaleByPowerOfTen(12)),
            Map.entry("P", BigDecimal.ONE.scaleByPowerOfTen(15)),
            Map.entry("E", BigDecimal.ONE.scaleByPowerOfTen(18)),
            Map.entry("Ki", BigDecimal.TWO.pow(10)),
            Map.entry("Mi", BigDecimal.TWO.pow(20)),
            Map.entry("Gi", BigDecimal.TWO.pow(30)),
            Map.entry("Ti", BigDecimal.TWO.pow(40)),
            Map.entry("Pi", BigDecimal.TWO.pow(50)),
            Map.entry("Ei", BigDecimal.TWO.pow(60)));

    public static CelQuantity parse(String text) {
        Matcher matcher = GRAMMAR.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a Kubernetes quantity: '" + text + "'");
        }
        BigDecimal number = new BigDecimal(matcher.group(1));
        String suffix = matcher.group(2);
        if (suffix == null) {
            return new CelQuantity(text, number);
        }
        if (SUFFIXES.containsKey(suffix)) {
            return new CelQuantity(text, number.multiply(SUFFIXES.get(suffix)));
        }
        return new CelQuantity(text, number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1))));
    }

    @Override
    public int compareTo(CelQuantity other) {
        return amount.compareTo(other.amount);
    }
}
