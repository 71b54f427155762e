package lbsim.experiment;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
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
        return integer(k, v, min, max);
    }

    /**
     * An integer in [min, max]. Read exactly (as a decimal), so a literal beyond 64 bits or a
     * float like 1e30 is refused as out of range instead of overflowing or wrapping.
     */
    private long integer(String k, JsonNode v, long min, long max) {
        if (!v.isNumber() && !v.isString()) throw error(k, "expected an integer, got " + v);
        String text = v.asString().trim();
        String outOfRange = text + " is out of range [" + min + ", " + max + "]";
        String notInteger = v.isString() ? "expected an integer, got '" + text + "'" : "expected an integer, got " + v;
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
        double x;
        if (v.isNumber()) {
            x = v.asDouble();
        } else if (v.isString()) {
            try {
                x = Double.parseDouble(v.asString().trim());
            } catch (NumberFormatException e) {
                throw error(k, "expected a number, got '" + v.asString() + "'");
            }
        } else {
            throw error(k, "expected a number, got " + v);
        }
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
        if (v.isString() && (v.asString().equals("true") || v.asString().equals("false"))) return Boolean.parseBoolean(v.asString());
        throw error(k, "expected true or false, got " + v);
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
            if (!e.isIntegralNumber()) throw error(k + "[" + i + "]", "expected an integer, got " + e);
            out[i] = integer(k + "[" + i + "]", e, Long.MIN_VALUE, Long.MAX_VALUE);
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
