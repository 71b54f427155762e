package lbsim.experiment;

import lbsim.BadInputException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The finished runs of a sweep output folder, read back from {@code sweep.json} and
 * {@code runs/<key>/summary.json} (the same data as {@code results.csv}), for reports. Runs
 * without a summary (another shard's, or unfinished) are left out.
 */
public record SweepData(String name, List<String> columns, List<Row> rows, int totalRuns) {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One finished run: its grid labels (one per column), seed, folder and flattened summary fields. */
    public record Row(List<String> labels, long seed, Path dir, Map<String, String> fields) {
        public String label(List<String> columns, String column) {
            return labels.get(columns.indexOf(column));
        }

        /** A summary field as a number; NaN when absent, empty (null in summary.json) or not a number. */
        public double number(String field) {
            String v = fields.get(field);
            if (v == null || v.isEmpty()) return Double.NaN;
            try {
                return Double.parseDouble(v);
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }

        /**
         * The value the run actually used for a scenario key path (from its
         * scenario.resolved.yaml, so {@code --set} overrides count) as a number, or NaN.
         */
        public double resolvedNumber(String keyPath) {
            Path f = dir.resolve("scenario.resolved.yaml");
            if (!Files.exists(f)) return Double.NaN;
            try {
                JsonNode n = ScenarioLoader.yaml().readTree(Files.readString(f));
                for (String k : keyPath.split("\\.")) {
                    if (n == null) return Double.NaN;
                    n = n.get(k);
                }
                return n != null && n.isNumber() ? n.asDouble() : Double.NaN;
            } catch (IOException | JacksonException e) {
                return Double.NaN;
            }
        }
    }

    /** Reads {@code out/sweep.json} and every finished run it lists. */
    public static SweepData read(Path out, String name) {
        Path m = out.resolve(Sweep.MANIFEST);
        JsonNode manifest;
        try {
            manifest = JSON.readTree(Files.readString(m));
        } catch (IOException | JacksonException e) {
            throw new BadInputException(out + ": cannot read " + Sweep.MANIFEST + " (" + e.getMessage() + ")");
        }
        List<String> cols = new ArrayList<>();
        for (JsonNode c : manifest.get("columns")) cols.add(c.asString());
        List<Row> rows = new ArrayList<>();
        int total = 0;
        for (JsonNode r : manifest.get("runs")) {
            total++;
            Path dir = out.resolve("runs").resolve(r.get("key").asString());
            Path s = dir.resolve("summary.json");
            if (!Files.exists(s)) continue;
            List<String> labels = new ArrayList<>();
            for (JsonNode l : r.get("labels")) labels.add(l.asString());
            rows.add(new Row(List.copyOf(labels), r.get("seed").asLong(), dir, Sweep.flatten(Sweep.readSummary(s))));
        }
        return new SweepData(name, List.copyOf(cols), List.copyOf(rows), total);
    }
}
