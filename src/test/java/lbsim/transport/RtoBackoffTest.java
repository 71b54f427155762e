package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import lbsim.engine.Simulation;
import lbsim.experiment.Scenarios;
import lbsim.lb.Scheme;
import lbsim.lb.SchemeContext;
import lbsim.lb.Schemes;
import lbsim.metrics.RunResult;
import lbsim.net.Network;
import lbsim.net.SwitchConfig;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/** Exponential backoff of the retransmission timeout over consecutive timeouts of a QP. */
class RtoBackoffTest {
    static final long US = Simulation.PS_PER_US;

    @Test
    void theTimeoutIsBaseTimesFactorToTheKCappedAndFactorOneIsNoBackoff() {
        RtoBackoff b = new RtoBackoff(2.0, 1000 * US);
        long[] expected = {100, 200, 400, 800, 1000, 1000};
        for (int k = 0; k < expected.length; k++) assertThat(b.timeoutPs(100 * US, k)).as("k=%d", k).isEqualTo(expected[k] * US);
        assertThat(b.timeoutPs(100 * US, Integer.MAX_VALUE)).isEqualTo(1000 * US);
        assertThat(new RtoBackoff(1.5, 0).timeoutPs(100 * US, 3)).isEqualTo(Math.round(100 * US * 3.375));
        // no cap: it grows without overflowing deadlines
        assertThat(new RtoBackoff(2.0, 0).timeoutPs(100 * US, 1000)).isEqualTo(RtoBackoff.MAX_PS);
        for (int k = 0; k < 40; k++) assertThat(RtoBackoff.NONE.timeoutPs(123 * US, k)).isEqualTo(123 * US);
        assertThatThrownBy(() -> new RtoBackoff(0.5, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RtoBackoff(2, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    /** What a blackholed flow left behind: its QP and the times its packets were lost. */
    record Blackhole(QueuePair qp, List<Long> lossPs) {
        /**
         * Gaps between the first losses of consecutive bursts of sends (bursts: losses > 20 us
         * apart): the timer starts with a burst's first packet (RFC 6298 §5.1) and each burst
         * after the first is resent the instant the timer fires, so each gap is one timeout.
         */
        List<Double> gapsUs() {
            List<Double> g = new ArrayList<>();
            if (lossPs.isEmpty()) return g;
            long burstStart = lossPs.get(0);
            for (int i = 1; i < lossPs.size(); i++) {
                if (lossPs.get(i) - lossPs.get(i - 1) > 20 * US) {
                    g.add((lossPs.get(i) - burstStart) / (double) US);
                    burstStart = lossPs.get(i);
                }
            }
            return g;
        }
    }

    /** One flow of {@code packets} whose sender uplink loses every packet before {@code untilPs}; conservation checked. */
    static Blackhole blackhole(String recovery, RtoBackoff backoff, long untilPs, int packets) {
        List<Long> losses = new ArrayList<>();
        LossyUplink f = LossyUplink.of(1, lossUntil(untilPs, losses));
        Simulation sim = f.sim();
        Scheme scheme = f.scheme();
        Network net = f.net();
        long bdp = 116_896;
        TransportConfig cfg = new TransportConfig("dctcp", recovery, 4096, 64, 64, 1, 1000 * US, 500 * US, bdp, 1.0 / 16, 1.0,
                0, 0, 3, 0, RecoveryParams.defaults().withBdp(bdp), backoff);
        OneFlowRun run = OneFlowRun.run(sim, net, cfg, scheme, packets * 4096L, recovery);
        return new Blackhole(run.qp(), losses);
    }

    @Test
    void consecutiveTimeoutsDoubleUpToTheCapAndProgressResetsThem() {
        RtoBackoff b = new RtoBackoff(2.0, 1000 * US);
        // go-back-n times out after timeout_us (1 ms); irn with at most 3 packets in flight after RTO_low (100 us)
        for (String r : List.of("go-back-n", "irn")) {
            long base = r.equals("irn") ? 100 : 1000;
            Blackhole h = blackhole(r, b, 5000 * US, r.equals("irn") ? 3 : 200);
            List<Double> gaps = h.gapsUs();
            assertThat(gaps).as(r).isNotEmpty();
            for (int k = 0; k < gaps.size(); k++) {
                double want = Math.min(base * Math.pow(2, k), 1000);
                assertThat(gaps.get(k)).as("%s: gap %d", r, k).isCloseTo(want, within(1.0));
            }
            // every burst was lost, and the timeout after the last one brought the flow through
            assertThat(h.qp().timeouts()).as(r).isEqualTo(gaps.size() + 1);
            assertThat(h.qp().currentRtoPs()).as(r + ": progress ended the backoff").isEqualTo(base * US);
        }
        // without backoff the same hole costs a timeout every base interval
        Blackhole flat = blackhole("go-back-n", RtoBackoff.NONE, 5000 * US, 200);
        assertThat(flat.gapsUs()).hasSize(4).allSatisfy(gap -> assertThat(gap).isCloseTo(1000, within(1.0)));
        Blackhole irnFlat = blackhole("irn", RtoBackoff.NONE, 5000 * US, 3);
        assertThat(irnFlat.gapsUs()).hasSize(49).allSatisfy(gap -> assertThat(gap).isCloseTo(100, within(1.0)));
    }

    /**
     * Flow 0 dumps 4 MB at 25 Gbps into a 1 Gbps uplink; flow 1 starts 2 ms later behind about 30 ms of that
     * queue (nothing is lost: 64 MB buffer) with a 1 ms timeout, so each of its timeouts is spurious and each
     * Go-Back-N resend lengthens the queue.
     */
    static final String LONG_QUEUE = """
            name: long-queue
            topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2, link_gbps: 25, uplink_gbps: 1}
            transport: {cc: fixed-rate, loss_recovery: go-back-n, pfc: false, timeout_us: 1000}
            nic: {retry_count: 0}
            workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 4000000}, {src: 1, dst: 3, size_bytes: 200000, start_ns: 2000000}]}
            max_time_ms: 5000
            """;

    @Test
    void aQpOnALongQueueSeesFewerSpuriousTimeoutsWithBackoff() {
        RunResult flat = Scenarios.run(LONG_QUEUE);
        RunResult backoff = Scenarios.run(LONG_QUEUE, "transport.timeout_backoff=2", "transport.timeout_max_us=64000");
        for (RunResult r : List.of(flat, backoff)) {
            Scenarios.assertConserved(r);
            assertThat(r.completed()).isTrue();
            assertThat(r.packetsDropped()).as("nothing is lost: every timeout is spurious").isZero();
        }
        assertThat(flat.timeouts()).isGreaterThan(10);
        assertThat(backoff.timeouts()).isLessThan(flat.timeouts() / 2);
        assertThat(backoff.packetsRetransmitted()).isLessThan(flat.packetsRetransmitted());
    }

    /** A 2 x 2 leaf-spine of 100 Gbit/s (3 hosts a leaf, 1 us links) under ECMP whose host 0 uplink loses what {@code hole} says. */
    record LossyUplink(Simulation sim, Scheme scheme, Network net) {
        static LossyUplink of(long seed, lbsim.net.LinkLoss hole) {
            long rate = 100_000_000_000L;
            Topology topo = LeafSpine.builder(2, 2, 3, 1, rate, rate, US).build();
            Simulation sim = new Simulation(seed);
            Scheme scheme = Schemes.create("ecmp", new SchemeContext(sim, topo));
            Network net = new Network(sim, topo, SwitchConfig.defaults(), scheme.switches());
            int uplinkPort = net.host(0).port(0).id;
            int link = topo.portLink(uplinkPort);
            if (topo.linkPortA(link) == uplinkPort) net.setLinkLoss(link, hole, null);
            else net.setLinkLoss(link, null, hole);
            return new LossyUplink(sim, scheme, net);
        }
    }

    /** Loses every packet before {@code untilPs} and records when. */
    static lbsim.net.LinkLoss lossUntil(long untilPs, List<Long> losses) {
        return now -> {
            if (now >= untilPs) return false;
            losses.add(now);
            return true;
        };
    }
}
