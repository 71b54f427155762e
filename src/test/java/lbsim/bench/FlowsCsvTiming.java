package lbsim.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;

/**
 * Times writing flows.csv for N synthetic flows (scripts/time-flows-csv): CPU time of the writing
 * thread per repeat. Calls the writer by reflection so the same program times older builds whose
 * RunResult has other fields. Not a test: speed is never asserted in unit tests.
 */
public final class FlowsCsvTiming {
    private FlowsCsvTiming() {}

    /** N flows as a run of that size reports them: nanosecond times with picosecond fractions, a few unfinished. */
    static List<FlowRecord> flows(int n) {
        SplittableRandom rnd = new SplittableRandom(1);
        List<FlowRecord> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double start = rnd.nextLong(1_000_000_000L) / 1000.0;
            boolean finished = rnd.nextInt(100) != 0;
            double fct = rnd.nextLong(10_000_000_000L) / 1000.0;
            double fin = finished ? start + fct : -1;
            out.add(new FlowRecord(i, rnd.nextInt(1024), rnd.nextInt(1024), 1L + rnd.nextInt(100_000_000), i / 1024, 1 + rnd.nextInt(8),
                    start, fin, finished ? fct : -1, rnd.nextInt(5), rnd.nextInt(2), rnd.nextInt(3), "",
                    finished ? 1 + rnd.nextDouble() * 5 : Double.NaN, 1 + rnd.nextInt(25_000), rnd.nextInt(3), finished ? fct + 2000.5 : -1));
        }
        return out;
    }

    /** A RunResult with these flows and defaults (0, false, empty, null) for every other component. */
    static RunResult result(List<FlowRecord> flows) throws Exception {
        RecordComponent[] comps = RunResult.class.getRecordComponents();
        Class<?>[] types = new Class<?>[comps.length];
        Object[] args = new Object[comps.length];
        for (int i = 0; i < comps.length; i++) {
            Class<?> t = comps[i].getType();
            types[i] = t;
            if (comps[i].getName().equals("flows")) args[i] = flows;
            else if (t == List.class) args[i] = List.of();
            else if (t == Map.class) args[i] = Map.of();
            else if (t == boolean.class) args[i] = false;
            else if (t == int.class) args[i] = 0;
            else if (t == long.class) args[i] = 0L;
            else if (t == double.class) args[i] = 0.0;
            else if (t == int[].class) args[i] = new int[0];
        }
        return RunResult.class.getDeclaredConstructor(types).newInstance(args);
    }

    public static void main(String[] a) throws Exception {
        int n = a.length > 0 ? Integer.parseInt(a[0]) : 1_000_000;
        int repeats = a.length > 1 ? Integer.parseInt(a[1]) : 5;
        RunResult r = result(flows(n));
        Method write = ResultWriter.class.getDeclaredMethod("writeFlows", RunResult.class, Path.class);
        write.setAccessible(true);
        Path dir = Files.createTempDirectory("flows-csv-timing");
        Path file = dir.resolve("flows.csv");
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < repeats; i++) {
            long cpu = bean.getCurrentThreadCpuTime();
            long wall = System.nanoTime();
            write.invoke(null, r, file);
            System.out.printf("flows.csv %d flows: %.0f ms CPU, %.0f ms wall, %d bytes%n", n, (bean.getCurrentThreadCpuTime() - cpu) / 1e6,
                    (System.nanoTime() - wall) / 1e6, Files.size(file));
        }
        Files.deleteIfExists(file);
        Files.delete(dir);
    }
}
