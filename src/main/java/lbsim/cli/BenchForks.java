package lbsim.cli;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * `bench --forks N`: the same benchmark in N fresh JVMs, one after the other. One JVM's JIT
 * decisions and memory placement move its speed by up to a third from one launch to the next,
 * more than most changes being measured, so a speed claim needs the spread over launches, not
 * the best run of one.
 */
final class BenchForks {
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private BenchForks() {}

    /**
     * Runs {@code lbsim bench ARGS --format json} in {@code forks} child JVMs started with this
     * JVM's options and class path, then prints per scenario the range and median over forks.
     */
    static void run(int forks, List<String> benchArgs, boolean json) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "bench"));
        command.addAll(benchArgs);
        command.addAll(List.of("--format", "json"));
        Map<String, List<JsonNode>> byScenario = new LinkedHashMap<>();
        for (int f = 1; f <= forks; f++) {
            if (!json) System.err.printf(Locale.ROOT, "fork %d of %d ...%n", f, forks);
            for (JsonNode row : runChild(command).get("scenarios")) {
                byScenario.computeIfAbsent(row.get("name").asString(), k -> new ArrayList<>()).add(row);
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (var e : byScenario.entrySet()) out.add(summarise(e.getKey(), e.getValue()));
        if (json) {
            System.out.println(JSON.writeValueAsString(Map.of("forks", forks, "scenarios", out)));
            return;
        }
        for (Map<String, Object> s : out) {
            System.out.printf(Locale.ROOT, "%-52s packet-hops/cpu-s over %d JVMs: min %5.2f M  median %5.2f M  max %5.2f M  (%.2f events per hop)%n",
                    s.get("name"), forks, (long) s.get("packet_hops_per_cpu_sec_min") / 1e6,
                    (long) s.get("packet_hops_per_cpu_sec_median") / 1e6, (long) s.get("packet_hops_per_cpu_sec_max") / 1e6,
                    (double) s.get("events_per_packet_hop"));
        }
    }

    private static JsonNode runChild(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            CompletableFuture<byte[]> stdout = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
            int code = p.waitFor();
            String text = new String(stdout.join(), StandardCharsets.UTF_8);
            if (code != 0) throw new IllegalStateException("bench fork exited with " + code + ": " + text);
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start a bench fork: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a bench fork", e);
        }
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Range and median over forks; events and hops must agree, as every fork runs the same deterministic scenario. */
    static Map<String, Object> summarise(String name, List<JsonNode> rows) {
        long events = rows.get(0).get("events").asLong();
        long hops = rows.get(0).get("packet_hops").asLong();
        for (JsonNode r : rows) {
            if (r.get("events").asLong() != events || r.get("packet_hops").asLong() != hops) {
                throw new IllegalStateException(name + ": forks simulated different runs (" + events + " vs " + r.get("events").asLong()
                        + " events): the run is not deterministic");
            }
        }
        long[] rate = rows.stream().mapToLong(r -> r.get("packet_hops_per_cpu_sec").asLong()).sorted().toArray();
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("name", name);
        s.put("forks", rows.size());
        s.put("events", events);
        s.put("packet_hops", hops);
        s.put("events_per_packet_hop", Math.round(1000.0 * events / Math.max(1, hops)) / 1000.0);
        s.put("packet_hops_per_cpu_sec_min", rate[0]);
        s.put("packet_hops_per_cpu_sec_median", median(rate));
        s.put("packet_hops_per_cpu_sec_max", rate[rate.length - 1]);
        s.put("packet_hops_per_cpu_sec", Arrays.stream(rate).boxed().toList());
        s.put("peak_heap_mb_max", rows.stream().mapToLong(r -> r.get("peak_heap_mb").asLong()).max().orElse(0));
        return s;
    }

    private static long median(long[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
