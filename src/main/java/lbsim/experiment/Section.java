package lbsim.experiment;

import lbsim.BadInputException;
import lbsim.ByteSize;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One mapping of the scenario tree, read key by key with defaults and validation. Defaults
 * are written back into the tree, so after binding the tree is the resolved scenario.
 * {@link #finish()} rejects every key nobody read, naming the allowed ones.
 */
public final class Section implements lbsim.lb.SchemeParams {
    private final String file;
    private final String path;
    private final ObjectNode node;
    private final Set<String> allowed = new LinkedHashSet<>();

    public Section(String file, String path, ObjectNode node) {
        this.file = file;
        this.path = path;
        this.node = node;
    }

    public String file() { return file; }
    public ObjectNode node() { return node; }

    private String key(String k) {
        return path.isEmpty() ? k : path + "." + k;
    }

    @Override
    public BadInputException error(String k, String message) {
        return new BadInputException(file + ": " + key(k) + ": " + message);
    }

    public boolean has(String k) {
        allowed.add(k);
        JsonNode v = node.get(k);
        return v != null && !v.isNull();
    }

    private JsonNode raw(String k) {
        allowed.add(k);
        JsonNode v = node.get(k);
        return v == null || v.isNull() ? null : v;
    }

    public String string(String k, String def) {
        JsonNode v = raw(k);
        if (v == null) {
            if (def != null) node.put(k, def);
            return def;
        }
        if (!v.isValueNode()) throw error(k, "expected a text value");
        return v.asString();
    }

    public String requiredString(String k) {
        String s = string(k, null);
        if (s == null) throw error(k, "missing (required)");
        return s;
    }

    /** A value from a fixed list; the error lists the allowed values. */
    public String choice(String k, String def, Collection<String> allowedValues) {
        String s = def == null ? requiredString(k) : string(k, def);
        if (!allowedValues.contains(s)) {
            throw error(k, "'" + s + "' is not allowed; allowed values: " + String.join(", ", allowedValues));
        }
        return s;
    }

    public long longValue(String k, long def, long min, long max) {
        JsonNode v = raw(k);
        if (v == null) {
            node.put(k, def);
            return def;
        }
        long x = integer(k, v, min, max);
        if (!v.isIntegralNumber()) node.put(k, x); // a whole float (1e3) or a byte count with a unit (64MiB) is echoed as the integer it is read as
        return x;
    }

    /**
     * An integer in [min, max]. Read exactly (as a decimal), so a literal beyond 64 bits or a
     * float like 1e30 is refused as out of range instead of overflowing or wrapping. A whole float
     * (1e3, 2.0) is that integer; text (a quoted '2') is refused, as for every typed key.
     */
    private long integer(String k, JsonNode v, long min, long max) {
        if (v.isString() && isByteCount(k)) return byteCount(k, v.asString(), min, max);
        if (v.isString()) throw error(k, "expected an integer, got " + quotedText(v));
        if (!v.isNumber()) throw error(k, "expected an integer, got " + v);
        String text = v.asString().trim();
        String outOfRange = text + " is out of range [" + min + ", " + max + "]";
        String notInteger = "expected an integer, got " + v;
        BigDecimal x;
        try {
            x = new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw error(k, v.isNumber() && Double.isInfinite(v.asDouble()) ? outOfRange : notInteger);
        }
        if (x.signum() != 0 && x.stripTrailingZeros().scale() > 0) throw error(k, notInteger);
        if (x.compareTo(BigDecimal.valueOf(min)) < 0 || x.compareTo(BigDecimal.valueOf(max)) > 0) throw error(k, outOfRange);
        return x.longValueExact();
    }

    /** Keys whose value is a byte count ({@code size_bytes}, {@code mtu_bytes}, ...): they accept units (docs/scenario.md). */
    static boolean isByteCount(String k) {
        return k.endsWith("_bytes");
    }

    /** A byte count written with a unit ({@code 64MiB}, {@code 1GB}), in [min, max]. */
    private long byteCount(String k, String text, long min, long max) {
        long x;
        try {
            x = ByteSize.parse(text);
        } catch (ByteSize.FormatException e) {
            throw error(k, e.getMessage());
        }
        if (x < min || x > max) throw error(k, "'" + text + "' = " + x + " bytes is out of range [" + min + ", " + max + "]");
        return x;
    }

    @Override
    public int intValue(String k, int def, int min, int max) {
        return (int) longValue(k, def, min, max);
    }

    public long requiredLong(String k, long min, long max) {
        if (raw(k) == null) throw error(k, "missing (required)");
        return longValue(k, 0, min, max);
    }

    @Override
    public double doubleValue(String k, double def, double min, double max) {
        JsonNode v = raw(k);
        if (v == null) {
            node.put(k, def);
            return def;
        }
        if (v.isString()) throw error(k, "expected a number, got " + quotedText(v));
        if (!v.isNumber()) throw error(k, "expected a number, got " + v);
        double x = v.asDouble();
        if (!(x >= min && x <= max)) throw error(k, x + " is out of range [" + min + ", " + max + "]");
        return x;
    }

    public boolean bool(String k, boolean def) {
        JsonNode v = raw(k);
        if (v == null) {
            node.put(k, def);
            return def;
        }
        if (v.isBoolean()) return v.asBoolean();
        throw error(k, "expected true or false, got " + (v.isString() ? quotedText(v) : v));
    }

    /**
     * A text value where a number or true/false belongs: a quoted '2' or 'true' is text in YAML, as are
     * forms YAML does not read as numbers (.5, +1, 1_000, 0x10); refused so that a value is never read
     * as something other than what the resolved scenario records.
     */
    private static String quotedText(JsonNode v) {
        return "the text '" + v.asString() + "' (YAML reads quoted values, and forms like .5, +1, 1_000 or yes, as text;"
                + " write the value unquoted, e.g. 0.5, 1, 1000, true)";
    }

    /** A nested mapping; created empty when absent so its defaults are recorded. */
    public Section section(String k) {
        JsonNode v = raw(k);
        if (v == null) {
            ObjectNode created = node.putObject(k);
            return new Section(file, key(k), created);
        }
        if (!v.isObject()) throw error(k, "expected a mapping");
        return new Section(file, key(k), (ObjectNode) v);
    }

    /** A list of mappings (empty when absent). */
    public List<Section> sections(String k) {
        JsonNode v = raw(k);
        List<Section> out = new ArrayList<>();
        if (v == null) {
            node.putArray(k);
            return out;
        }
        if (!v.isArray()) throw error(k, "expected a list");
        int i = 0;
        for (JsonNode e : v) {
            if (!e.isObject()) throw error(k + "[" + i + "]", "expected a mapping");
            out.add(new Section(file, key(k) + "[" + i + "]", (ObjectNode) e));
            i++;
        }
        return out;
    }

    /** A list of integers (empty when absent). */
    public long[] longList(String k) {
        JsonNode v = raw(k);
        if (v == null) return new long[0];
        if (!v.isArray()) throw error(k, "expected a list of integers");
        long[] out = new long[v.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode e = v.get(i);
            out[i] = integer(k + "[" + i + "]", e, Long.MIN_VALUE, Long.MAX_VALUE);
            if (!e.isIntegralNumber()) ((ArrayNode) v).set(i, node.numberNode(out[i])); // as longValue: 1e3 -> 1000
        }
        return out;
    }

    /** The raw node of a key, for values with their own structure. */
    public JsonNode rawValue(String k) {
        return raw(k);
    }

    /** Marks keys as known without reading them (read elsewhere). */
    public void allow(String... keys) {
        allowed.addAll(List.of(keys));
    }

    /** Fails on any key that was not read. */
    public void finish() {
        Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
        while (it.hasNext()) {
            String k = it.next().getKey();
            if (!allowed.contains(k)) {
                throw error(k, "unknown key; allowed keys here: " + String.join(", ", allowed));
            }
        }
    }
}
