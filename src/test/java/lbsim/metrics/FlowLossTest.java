package lbsim.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lbsim.experiment.Scenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-flow lost packets (flows.csv lost_packets) and the worst flow's loss in summary.json
 * (flows.max_lost_packets, flows.max_loss_fraction), checked against the network's own drop and
 * trim counters, which the per-flow attribution cannot fake.
 */
class FlowLossTest {
    @TempDir
    Path tmp;

    /** Eight senders into one receiver behind 16 KB ports: drop-tail incast. */
    private static final String INCAST = """
            name: incast
            topology: {kind: leaf-spine, leaves: 3, spines: 2, hosts_per_leaf: 4, link_gbps: 100, port_buffer_bytes: 16384}
            transport: {cc: fixed-rate, pfc: false, loss_recovery: %s}
            nic: {profile: multipath}
            load_balancer: {scheme: spray-host}
            workload:
              kind: flows
              flows: [{src: 0, dst: 11, size_bytes: 200000}, {src: 1, dst: 11, size_bytes: 200000},
                      {src: 2, dst: 11, size_bytes: 200000}, {src: 3, dst: 11, size_bytes: 100000},
                      {src: 4, dst: 11, size_bytes: 200000}, {src: 5, dst: 11, size_bytes: 200000},
                      {src: 6, dst: 11, size_bytes: 300000}, {src: 7, dst: 11, size_bytes: 200000},
                      {src: 8, dst: 9, size_bytes: 100000}]
            """;

    @Test
    void perFlowLossesAddUpToTheNetworksDropsAndTheSummaryReportsTheWorstFlow() throws Exception {
        for (String recovery : new String[] {"erasure", "go-back-n", "tcp"}) {
            RunResult r = Scenarios.run(INCAST.formatted(recovery));
            Scenarios.assertConserved(r);
            assertThat(r.packetsDropped()).as("the incast must drop (%s)", recovery).isPositive();
            long sum = 0;
            double worst = 0;
            long worstCount = 0;
            for (FlowRecord f : r.flows()) {
                sum += f.lostPackets();
                assertThat(f.packets()).isEqualTo((f.sizeBytes() + 4095) / 4096);
                worst = Math.max(worst, (double) f.lostPackets() / f.packets());
                worstCount = Math.max(worstCount, f.lostPackets());
            }
            assertThat(sum).as(recovery).isEqualTo(r.packetsDropped());
            // the flow that shares no port with the incast loses nothing
            assertThat(r.flows().get(8).lostPackets()).isZero();
            @SuppressWarnings("unchecked")
            Map<String, Object> flows = (Map<String, Object>) ResultWriter.summary(r).get("flows");
            assertThat(((Number) flows.get("max_lost_packets")).longValue()).isEqualTo(worstCount);
            assertThat(((Number) flows.get("max_loss_fraction")).doubleValue()).isCloseTo(worst, org.assertj.core.api.Assertions.within(5e-4));
            assertThat(worst).isPositive();
        }
    }

    @Test
    void trimmedPacketsCountAsLostOnceAndFlowsCsvHasTheColumn() throws Exception {
        RunResult r = Scenarios.run(INCAST.formatted("trim"));
        Scenarios.assertConserved(r);
        assertThat(r.packetsTrimmed()).isPositive();
        long sum = r.flows().stream().mapToLong(FlowRecord::lostPackets).sum();
        // every trimmed packet lost its payload once; a header dropped later is not counted again
        assertThat(sum).isBetween(r.packetsTrimmed(), r.packetsTrimmed() + r.packetsDropped());
        ResultWriter.write(r, tmp);
        var lines = Files.readAllLines(tmp.resolve("flows.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        int col = header.indexOf("lost_packets");
        assertThat(col).isEqualTo(header.indexOf("path_changes") + 1);
        long fromCsv = 0;
        for (String l : lines.subList(1, lines.size())) fromCsv += Long.parseLong(l.split(",", -1)[col]);
        assertThat(fromCsv).isEqualTo(sum);
    }
}
