package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.longs;

import lbsim.BadInputException;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** transport.pacing_jitter: fixed-rate gaps drawn around the mean gap, keeping the mean rate. */
class PacingJitterTest {
    private static final String ONE_FLOW = """
            name: jitter
            topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts_per_leaf: 1, link_gbps: 100}
            transport: {cc: fixed-rate, rate_coefficient: 0.5}
            workload: {kind: flows, flows: [{src: 0, dst: 1, size_bytes: 4096000}]}
            """;

    /** A small all-to-all paced at its fair share: many QPs per host, losses, every pacing gap matters. */
    private static final String ATA = """
            name: jitter-ata
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100, port_buffer_bytes: 32768}
            transport: {cc: fixed-rate, pfc: false, loss_recovery: erasure}
            load_balancer: {scheme: spray-host}
            workload: {kind: collective, op: all-to-all, algorithm: direct, size_bytes: 2000000, start_jitter_ns: 300}
            """;

    @Test
    void zeroJitterIsExactlyTheStrictlyPeriodicPacing() {
        RunResult plain = Scenarios.run(ATA);
        RunResult zero = Scenarios.run(ATA, "transport.pacing_jitter=0");
        RunResult some = Scenarios.run(ATA, "transport.pacing_jitter=0.5");
        assertThat(zero.flows()).isEqualTo(plain.flows());
        assertThat(zero.links()).isEqualTo(plain.links());
        assertThat(zero.packetsDropped()).isEqualTo(plain.packetsDropped());
        assertThat(some.flows()).as("jitter changes the run").isNotEqualTo(plain.flows());
        assertThat(Scenarios.run(ATA, "transport.pacing_jitter=0.5").flows()).as("same seed, same run").isEqualTo(some.flows());
    }

    @Test
    void jitterKeepsTheMeanRate() {
        int packets = 1000;
        double gapNs = (4096 + 64) * 8 / 50e9 * 1e9;   // 665.6 ns at half of 100 Gb/s
        double periodic = Scenarios.run(ONE_FLOW).flows().get(0).fctNs();
        qt().withExamples(8).withShrinkCycles(0).withFixedSeed(7L).forAll(longs().between(1, 1_000_000), doubles().between(0.05, 1.0))
                .checkAssert((seed, j) -> {
                    RunResult r = Scenarios.run(ONE_FLOW, "seed=" + seed, "transport.pacing_jitter=" + j);
                    Scenarios.assertConserved(r);
                    // the sum of (packets - 1) gaps uniform in (1 +- j) x gap: sd gap x j x sqrt((packets - 1) / 3)
                    // (the spread is capped at 1 - rate / line = 0.5: no gap shorter than the packet's time on the wire)
                    double sd = gapNs * Math.min(j, 0.5) * Math.sqrt((packets - 1) / 3.0);
                    double fct = r.flows().get(0).fctNs();
                    assertThat(Math.abs(fct - periodic)).as("seed %d jitter %.3f", seed, j).isLessThanOrEqualTo(5 * sd + 1000);
                });
    }

    @Test
    void jitterOutsideZeroToOneIsRefusedNamingTheKeyAndRange() {
        for (String v : new String[] {"-0.1", "1.5"}) {
            assertThatThrownBy(() -> Scenarios.parse(ONE_FLOW, "transport.pacing_jitter=" + v))
                    .isInstanceOf(BadInputException.class)
                    .hasMessageContaining("transport.pacing_jitter").hasMessageContaining("[0.0, 1.0]");
        }
    }
}
