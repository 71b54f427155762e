package lbsim.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import lbsim.engine.EventHandler;
import lbsim.engine.Simulation;
import lbsim.experiment.Runner;
import lbsim.experiment.Scenario;
import lbsim.experiment.ScenarioLoader;
import lbsim.metrics.RunResult;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH micro and macro benchmarks of the hot path; run with scripts/jmh. Speed is measured
 * here and by `lbsim bench`, never asserted in unit tests.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class SimulatorBenchmark {

    /** A handler that keeps a fixed population of events alive, as busy links do. */
    static final class Reschedule implements EventHandler {
        Simulation sim;
        long step;

        @Override
        public void onEvent(int kind, long arg, Object obj) {
            sim.schedule(step + (arg & 1023), this, kind, arg * 6364136223846793005L + 1, obj);
        }
    }

    /** Events per second through the heap with 10 000 pending events. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long eventQueue10k() {
        Simulation sim = new Simulation(1);
        Reschedule h = new Reschedule();
        h.sim = sim;
        h.step = 1000;
        for (int i = 0; i < 10_000; i++) sim.schedule(i, h, 0, i, null);
        sim.run(2_000_000L);
        return sim.eventsProcessed();
    }

    private static final String PERMUTATION_K8 = """
            name: jmh-ft8
            topology: {kind: fat-tree, k: 8, link_gbps: 100, link_latency_ns: 1000}
            workload: {kind: permutation, size_bytes: 2000000}
            """;

    /** Whole runs per second of the 128-host fat-tree permutation (see `lbsim bench` for hops/s). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Measurement(iterations = 3, time = 5)
    public long permutationFatTreeK8() {
        Scenario sc = ScenarioLoader.parse("jmh", PERMUTATION_K8, null, List.of(), null);
        RunResult r = Runner.run(sc, Runner.Progress.NONE);
        return r.packetHops();
    }
}
