package lbsim.experiment.reproduce;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lbsim.BadInputException;
import lbsim.metrics.AtomicFiles;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code provenance.json} of a reproduction: which preset and scale made the results, the preset's
 * fingerprint (so stored results that a later change of the preset makes stale are detected), the lbsim
 * version and commit that ran them (the latest that ran any: re-making only the comparison keeps it), and the
 * summed run time of its runs.
 */
public record Provenance(String preset, String scale, String fingerprint, String version, String commit, int runs,
                         double runSeconds) {
    public static final String FILE = "provenance.json";
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    /**
     * SHA-256 over what decides a preset's results and comparison: the scale's sweep text, the metric and
     * every cell's selection, baselines, kind and paper number (not its notes, which change no number).
     */
    public static String fingerprint(Preset p, String scale) {
        return fingerprint(p, scale, List.of());
    }

    /** The fingerprint of a reproduction run with {@code --set} overrides (none: the preset's own). */
    public static String fingerprint(Preset p, String scale, List<String> overrides) {
        StringBuilder sb = new StringBuilder();
        for (String o : overrides) sb.append("--set ").append(o).append('\n');
        sb.append(p.id()).append('\n').append(scale).append('\n').append(p.scales().get(scale)).append('\n').append(p.metric()).append('\n');
        for (Cell c : p.cells()) {
            sb.append(c.name()).append('|').append(c.kind()).append('|').append(canonical(c.select())).append('|');
            for (Map<String, String> b : c.baselines()) sb.append(canonical(b)).append(';');
            sb.append('|').append(c.paper()).append('|').append(c.metric()).append('|').append(c.overColumn()).append('|')
                    .append(c.overLabels()).append('|').append(c.meanOfBaselines()).append(c.atLeast() ? "|at-least" : c.atMost() ? "|at-most" : "")
                    .append(c.isUpTo() ? "|up-to" + c.upTo() : "").append('\n');
        }
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(sb.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Map.of iterates in a different order in every JVM: sort the keys. */
    private static String canonical(Map<String, String> m) {
        return m == null ? "" : new TreeMap<>(m).toString();
    }

    public void write(Path dir) throws IOException {
        ObjectNode o = JSON.createObjectNode();
        o.put("preset", preset);
        o.put("scale", scale);
        o.put("fingerprint", fingerprint);
        o.put("version", version);
        o.put("commit", commit);
        o.put("runs", runs);
        o.put("run_seconds", Math.round(runSeconds * 10) / 10.0);
        AtomicFiles.writeString(dir.resolve(FILE), JSON.writeValueAsString(o) + "\n");
    }

    /** The provenance in {@code dir}, or null when it has none. */
    public static Provenance read(Path dir) {
        Path f = dir.resolve(FILE);
        if (!Files.exists(f)) return null;
        try {
            JsonNode n = JSON.readTree(Files.readString(f));
            return new Provenance(n.path("preset").asString(), n.path("scale").asString(), n.path("fingerprint").asString(),
                    n.path("version").asString(), n.path("commit").asString(), n.path("runs").asInt(), n.path("run_seconds").asDouble());
        } catch (IOException | RuntimeException e) {
            throw new BadInputException(f + ": not a readable provenance file (" + e.getMessage() + ")");
        }
    }

    /** The summed {@code wall_ms} of the finished runs (each run is single-threaded, so about its CPU time), in seconds. */
    public static double runSeconds(List<JsonNode> summaries) {
        double ms = 0;
        for (JsonNode s : summaries) ms += s.path("wall_ms").asDouble(0);
        return ms / 1000;
    }
}
