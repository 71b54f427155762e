package lbsim.experiment;

import lbsim.BadInputException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A sweep file: {@code base} (a scenario inline or a path relative to the sweep file),
 * {@code grid} (scenario key paths to lists of values, or to mappings of label to value;
 * the cartesian product in file order, last key fastest) and {@code seeds} (a list, or a
 * count n meaning 1..n). {@link #runs()} expands it into runs in grid order x seed.
 */
public final class SweepSpec {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> TOP_KEYS = List.of("name", "base", "grid", "seeds");
    /** Most seeds a count may ask for: a million runs per grid point is already beyond any sweep's budget, and a larger count would only exhaust memory. */
    static final int MAX_SEEDS = 1_000_000;
    /** Most runs (grid points x seeds) a sweep may have: each is a folder of results, and the run list is built up front. */
    static final int MAX_RUNS = 1_000_000;
    /** A grid value {@code {nccl_ladder: "-b 8 -e 8G -f 2"}}: the message sizes of that NCCL-tests command line ({@link NcclLadder}). */
    public static final String LADDER_KEY = "nccl_ladder";
    /** A grid key whose values each set several scenario keys at once (label -> {key.path: value, ...}). */
    public static final String SET_KEY = "set";

    /** One value of a grid key: the label shown in results.csv and the YAML value applied. */
    public record Value(String label, JsonNode value) {
        String override(String key) {
            return key + "=" + JSON.writeValueAsString(value);
        }

        /** Grid key {@code set}: the value is a mapping of key paths to values, one override each, in order. */
        void addOverrides(String key, List<String> out) {
            if (!key.equals(SET_KEY)) {
                out.add(override(key));
                return;
            }
            for (Map.Entry<String, JsonNode> e : value.properties()) out.add(e.getKey() + "=" + JSON.writeValueAsString(e.getValue()));
        }
    }

    public record Dimension(String key, List<Value> values) {}

    /** One run: its position, stable key (folder name), grid labels, overrides and seed. */
    public record Run(int index, String key, List<String> labels, List<String> overrides, long seed) {}

    private final String file;
    private final String name;
    private final String baseText;
    private final String baseLabel;
    private final Path baseDir;
    private final List<Dimension> grid;
    private final long[] seeds;
    private final List<String> extraOverrides;

    private SweepSpec(String file, String name, String baseText, String baseLabel, Path baseDir, List<Dimension> grid,
                      long[] seeds, List<String> extraOverrides) {
        this.file = file;
        this.name = name;
        this.baseText = baseText;
        this.baseLabel = baseLabel;
        this.baseDir = baseDir;
        this.grid = grid;
        this.seeds = seeds;
        this.extraOverrides = List.copyOf(extraOverrides);
    }

    public static SweepSpec load(Path file, List<String> extraOverrides) {
        String text = YamlInput.read(file, "sweep file");
        return parse(file.toString(), text, file.toAbsolutePath().getParent(), extraOverrides);
    }

    /**
     * Parses a sweep. {@code extraOverrides} ({@code --set}) are applied to every run after
     * the grid point, so they can shrink a whole sweep (e.g. for tests).
     */
    public static SweepSpec parse(String file, String text, Path dir, List<String> extraOverrides) {
        JsonNode root = ScenarioLoader.readYaml(file, text);
        if (root == null || !root.isObject()) throw new BadInputException(file + ": expected a YAML mapping at the top level");
        for (Iterator<String> it = root.propertyNames().iterator(); it.hasNext(); ) {
            String k = it.next();
            if (!TOP_KEYS.contains(k)) {
                throw new BadInputException(file + ": " + k + ": unknown key; allowed keys here: " + String.join(", ", TOP_KEYS));
            }
        }
        JsonNode base = root.get("base");
        String baseText;
        String baseLabel;
        Path baseDir = dir;
        if (base == null || base.isNull()) {
            throw new BadInputException(file + ": base: missing (required): a scenario mapping or a path to a scenario file");
        } else if (base.isString()) {
            Path p = dir == null ? Path.of(base.asString()) : dir.resolve(base.asString());
            try {
                baseText = YamlInput.read(p, "scenario file");
            } catch (BadInputException e) {
                throw new BadInputException(file + ": base: " + e.getMessage(), e);
            }
            baseLabel = p.toString();
            baseDir = p.toAbsolutePath().getParent();
        } else if (base.isObject()) {
            baseText = ScenarioLoader.toYaml((ObjectNode) base);
            baseLabel = file + " (base)";
        } else {
            throw new BadInputException(file + ": base: expected a scenario mapping or a file path");
        }
        JsonNode nameNode = root.get("name");
        if (nameNode != null && !nameNode.isNull() && !nameNode.isValueNode()) {
            throw new BadInputException(file + ": name: expected a text value, got " + (nameNode.isArray() ? "a list" : "a mapping"));
        }
        String name = nameNode == null || nameNode.isNull() ? null : nameNode.asString();
        List<Dimension> grid = new ArrayList<>();
        JsonNode g = root.get("grid");
        if (g != null && !g.isNull()) {
            if (!g.isObject()) throw new BadInputException(file + ": grid: expected a mapping of scenario keys to lists of values");
            for (Map.Entry<String, JsonNode> e : g.properties()) {
                String key = e.getKey();
                if (key.equals("seed")) throw new BadInputException(file + ": grid.seed: use the top-level seeds: key");
                List<Value> values = new ArrayList<>();
                JsonNode v = e.getValue();
                if (v.isArray()) {
                    for (JsonNode x : v) {
                        // the same value twice would be the same run twice, into one folder (concurrently with --jobs)
                        if (values.stream().anyMatch(y -> y.value().equals(x))) {
                            throw new BadInputException(file + ": grid." + key + ": value " + JSON.writeValueAsString(x)
                                    + " is given twice; list each value once");
                        }
                        values.add(new Value(x.isValueNode() ? x.asString() : JSON.writeValueAsString(x), x));
                    }
                } else if (v.isObject() && v.size() == 1 && v.has(LADDER_KEY)) {
                    // an NCCL-tests size ladder: one value per size, labelled by the byte count as a list of integers would be
                    JsonNode args = v.get(LADDER_KEY);
                    if (!args.isString()) {
                        throw new BadInputException(file + ": grid." + key + "." + LADDER_KEY + ": expected nccl-tests options as text,"
                                + " e.g. \"-b 8 -e 8G -f 2\"");
                    }
                    try {
                        for (long size : NcclLadder.sizes(args.asString())) {
                            values.add(new Value(Long.toString(size), JSON.getNodeFactory().numberNode(size)));
                        }
                    } catch (IllegalArgumentException ex) {
                        throw new BadInputException(file + ": grid." + key + "." + LADDER_KEY + ": '" + args.asString() + "': " + ex.getMessage());
                    }
                } else if (v.isObject()) {
                    for (Map.Entry<String, JsonNode> l : v.properties()) values.add(new Value(l.getKey(), l.getValue()));
                } else {
                    throw new BadInputException(file + ": grid." + key + ": expected a list of values or a mapping of label to value");
                }
                if (values.isEmpty()) throw new BadInputException(file + ": grid." + key + ": no values");
                if (key.equals(SET_KEY)) {
                    for (Value x : values) {
                        if (!v.isObject() || !x.value().isObject() || x.value().isEmpty()) {
                            throw new BadInputException(file + ": grid.set: expected a mapping of label to {key.path: value, ...}");
                        }
                    }
                }
                grid.add(new Dimension(key, values));
            }
            refuseOverlappingKeys(file, grid);
        }
        long[] seeds;
        JsonNode s = root.get("seeds");
        if (s == null || s.isNull()) {
            seeds = new long[] {1};
        } else if (s.isIntegralNumber()) {
            if (!s.canConvertToInt() || s.asInt() < 1 || s.asInt() > MAX_SEEDS) {
                throw new BadInputException(file + ": seeds: " + s + " is out of range; a count in [1, " + MAX_SEEDS
                        + "] or a list of seeds");
            }
            int n = s.asInt();
            seeds = new long[n];
            for (int i = 0; i < n; i++) seeds[i] = i + 1;
        } else if (s.isArray() && !s.isEmpty()) {
            seeds = new long[s.size()];
            for (int i = 0; i < seeds.length; i++) {
                if (!s.get(i).isIntegralNumber()) throw new BadInputException(file + ": seeds[" + i + "]: expected an integer, got " + s.get(i));
                if (!s.get(i).canConvertToLong()) {
                    throw new BadInputException(file + ": seeds[" + i + "]: " + s.get(i) + " is out of range [" + Long.MIN_VALUE + ", "
                            + Long.MAX_VALUE + "]");
                }
                seeds[i] = s.get(i).asLong();
                for (int j = 0; j < i; j++) {
                    if (seeds[j] == seeds[i]) {
                        throw new BadInputException(file + ": seeds: " + seeds[i] + " is given twice (seeds[" + j + "] and seeds["
                                + i + "]); list each seed once");
                    }
                }
            }
        } else {
            throw new BadInputException(file + ": seeds: expected a count or a non-empty list of integers");
        }
        double runs = seeds.length; // double: a product of list sizes can pass 2^63
        StringBuilder sizes = new StringBuilder();
        for (Dimension d : grid) {
            runs *= d.values().size();
            sizes.append(d.values().size()).append(" x ");
        }
        if (runs > MAX_RUNS) {
            throw new BadInputException(file + ": grid: " + sizes + seeds.length + " seeds = " + String.format(java.util.Locale.ROOT, "%.0f", runs)
                    + " runs; a sweep may have at most " + MAX_RUNS + " runs: shrink the grid or the seeds");
        }
        return new SweepSpec(file, name, baseText, baseLabel, baseDir, grid, seeds, extraOverrides);
    }

    /**
     * Two grid keys that set the same scenario key (one path equal to or inside the other's
     * subtree) would have the later silently replace the earlier in every run, so the runs
     * would not be what their labels say: exit 2 naming both.
     */
    private static void refuseOverlappingKeys(String file, List<Dimension> grid) {
        List<String[]> paths = new ArrayList<>(); // {scenario key path, grid key as the user wrote it}
        for (int d = 0; d < grid.size(); d++) {
            Dimension dim = grid.get(d);
            List<String[]> own = new ArrayList<>();
            if (dim.key().equals(SET_KEY)) {
                for (Value v : dim.values()) {
                    for (String k : v.value().propertyNames()) own.add(new String[] {k, "set." + v.label() + "." + k});
                }
            } else {
                own.add(new String[] {dim.key(), dim.key()});
            }
            for (String[] mine : own) {
                for (String[] earlier : paths) {
                    if (overlaps(mine[0], earlier[0])) {
                        throw new BadInputException(file + ": grid." + earlier[1] + " and grid." + mine[1] + " both set "
                                + (mine[0].length() >= earlier[0].length() ? mine[0] : earlier[0])
                                + ": the later would replace the earlier in every run; vary it in one grid key"
                                + " (a subtree value or grid.set can set several keys together)");
                    }
                }
            }
            paths.addAll(own);
        }
    }

    /** True if {@code a} and {@code b} are the same key path or one lies inside the other's subtree. */
    static boolean overlaps(String a, String b) {
        String s = a.length() <= b.length() ? a : b, l = a.length() <= b.length() ? b : a;
        return l.equals(s) || l.startsWith(s + ".");
    }

    public String file() { return file; }
    public String name() { return name; }
    public List<Dimension> grid() { return grid; }
    public long[] seeds() { return seeds.clone(); }

    public List<String> columns() {
        List<String> c = new ArrayList<>();
        for (Dimension d : grid) c.add(d.key());
        return c;
    }

    /** Number of grid points (runs per seed). */
    public int points() {
        int n = 1;
        for (Dimension d : grid) n = Math.multiplyExact(n, d.values().size());
        return n;
    }

    /** Every run, grid point by grid point (last grid key fastest), seeds within a point. */
    public List<Run> runs() {
        List<Run> out = new ArrayList<>();
        int points = points();
        for (int p = 0; p < points; p++) {
            List<String> labels = new ArrayList<>();
            List<String> overrides = pointOverrides(p, labels);
            for (long seed : seeds) {
                out.add(new Run(out.size(), runKey(labels, overrides, seed), List.copyOf(labels), overrides, seed));
            }
        }
        return out;
    }

    private List<String> pointOverrides(int point, List<String> labels) {
        int[] idx = new int[grid.size()];
        int rest = point;
        for (int d = grid.size() - 1; d >= 0; d--) {
            int n = grid.get(d).values().size();
            idx[d] = rest % n;
            rest /= n;
        }
        List<String> ov = new ArrayList<>();
        for (int d = 0; d < grid.size(); d++) {
            Value v = grid.get(d).values().get(idx[d]);
            labels.add(v.label());
            v.addOverrides(grid.get(d).key(), ov);
        }
        ov.addAll(extraOverrides);
        return List.copyOf(ov);
    }

    /** The scenario of one run (grid point, then --set overrides, then the seed). */
    public Scenario scenario(Run r) {
        return ScenarioLoader.parse(baseLabel, baseText, baseDir, r.overrides(), r.seed());
    }

    /**
     * Binds every grid point once, so a bad key or value fails before anything runs. Returns the
     * grid points' scenario warnings (keys their settings do not read) once each, with the number
     * of grid points that have it when not all do: each run's summary.json has its own.
     */
    public List<String> validate() {
        int points = points();
        Map<String, Integer> warnings = new java.util.LinkedHashMap<>();
        for (int p = 0; p < points; p++) {
            List<String> labels = new ArrayList<>();
            List<String> ov = pointOverrides(p, labels);
            try {
                for (String w : ScenarioLoader.parse(baseLabel, baseText, baseDir, ov, seeds[0]).warnings()) warnings.merge(w, 1, Integer::sum);
            } catch (BadInputException e) {
                StringBuilder point = new StringBuilder();
                for (int d = 0; d < grid.size(); d++) {
                    if (d > 0) point.append(", ");
                    point.append(grid.get(d).key()).append('=').append(labels.get(d));
                }
                throw new BadInputException(file + ": grid point {" + point + "}: " + e.getMessage(), e);
            }
        }
        List<String> out = new ArrayList<>();
        warnings.forEach((w, n) -> out.add(n == points ? w : w + " (at " + n + " of " + points + " grid points)"));
        return out;
    }

    /** Readable, file-system-safe and unique: labels, seed and a hash of base, overrides and seed. */
    private String runKey(List<String> labels, List<String> overrides, long seed) {
        StringBuilder sb = new StringBuilder();
        for (int d = 0; d < labels.size(); d++) {
            String k = grid.get(d).key();
            sb.append(k.substring(k.lastIndexOf('.') + 1)).append('=').append(labels.get(d)).append(',');
        }
        sb.append("seed=").append(seed);
        String readable = sb.toString().replaceAll("[^A-Za-z0-9._=,-]", "_");
        if (readable.length() > 120) readable = readable.substring(0, 120);
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(baseText.getBytes(StandardCharsets.UTF_8));
            for (String o : overrides) md.update(("\n" + o).getBytes(StandardCharsets.UTF_8));
            md.update(("\nseed=" + seed).getBytes(StandardCharsets.UTF_8));
            return readable + "-" + HexFormat.of().formatHex(md.digest(), 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
