package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import lbsim.experiment.Runner;
import lbsim.experiment.Scenario;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import lbsim.net.Packet;
import lbsim.transport.CongestionControl;
import lbsim.transport.Flow;
import lbsim.transport.IdleSplit;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;
import lbsim.transport.Transport;
import lbsim.transport.FlowSpec;
import org.junit.jupiter.api.Test;

/**
 * ParaLet's m slots are long-lived QPs (§5.3): a slot's congestion control carries over from one
 * flowlet to the next instead of restarting at every flowlet.
 */
class ParaLetSlotCcTest {
    private static final String FABRIC = """
            name: paralet-cc
            topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 4, link_gbps: 100}
            workload: {kind: permutation, size_bytes: 2000000}
            load_balancer: {scheme: paralet, m: 4}
            """;

    /** What a slot's CC looked like: at its last ACK or timeout, and when each flowlet sent its first packet. */
    private static final class Recorder implements PathPolicy {
        final ParaLet inner;
        final Map<Long, CongestionControl> slotCc = new HashMap<>();
        final Map<Long, Long> lastWindow = new HashMap<>();
        final List<long[]> starts = new ArrayList<>();   // {window at start, slot's last window before, rate at start}
        final List<Long> firstWindows = new ArrayList<>();  // window when each slot's first flowlet starts
        int flowletsStarted;
        int sameCc;

        Recorder(ParaLet inner) {
            this.inner = inner;
        }

        private static long slot(QueuePair qp) {
            return ((long) qp.src() << 32) | qp.sport();
        }

        @Override public void openFlow(Transport t, Flow f) { inner.openFlow(t, f); }
        @Override public IdleSplit idleSplit(Transport t, FlowSpec s) { return inner.idleSplit(t, s); }
        @Override public void initQp(QueuePair qp) { inner.initQp(qp); }

        @Override
        public void beforeSend(QueuePair qp, Packet p) {
            if (p.seq == 0 && qp.highestSent() == 1 && qp.retransmittedPackets() == 0) {
                flowletsStarted++;
                CongestionControl cc = qp.congestionControl();
                CongestionControl before = slotCc.put(slot(qp), cc);
                if (before == cc) sameCc++;
                if (before == null) firstWindows.add(cc.windowBytes());
                Long last = lastWindow.get(slot(qp));
                if (before != null && last != null) starts.add(new long[] {cc.windowBytes(), last, cc.rateBps()});
            }
            inner.beforeSend(qp, p);
        }

        @Override
        public void onAck(QueuePair qp, Packet ack, long rttPs) {
            inner.onAck(qp, ack, rttPs);
            lastWindow.put(slot(qp), qp.congestionControl().windowBytes());
        }

        @Override
        public void onTimeout(QueuePair qp) {
            inner.onTimeout(qp);
            lastWindow.put(slot(qp), qp.congestionControl().windowBytes());
        }
    }

    private static Recorder run(String... overrides) {
        Scenario s = Scenarios.parse(FABRIC, overrides);
        Recorder[] rec = new Recorder[1];
        s = s.withSchemeFactory(c -> {
            rec[0] = new Recorder(new ParaLet(c.sim(), c.topology(), 4, 0));
            return new Scheme("paralet", rec[0], sw -> new Ecmp.Hash(c.switchSeed(sw, "ecmp")));
        });
        RunResult r = Runner.run(s, Runner.Progress.NONE);
        Scenarios.assertConserved(r);
        assertThat(r.flows()).allSatisfy(f -> assertThat(f.finishNs()).isPositive());
        return rec[0];
    }

    @Test
    void aSlotsNextFlowletStartsWithTheWindowItsLastOneEndedWith() {
        Recorder rec = run("transport.cc=dctcp");
        assertThat(rec.flowletsStarted).isGreaterThan(16 * 4);
        assertThat(rec.starts).isNotEmpty();
        for (long[] s : rec.starts) assertThat(s[0]).as("window at the flowlet's start").isEqualTo(s[1]);
        // a fresh DCTCP starts at one BDP every time; a carried-over window has moved away from it
        long initial = rec.firstWindows.get(0);
        assertThat(rec.firstWindows).containsOnly(initial);
        assertThat(rec.starts).anySatisfy(s -> assertThat(s[0]).isNotEqualTo(initial));
        // every flowlet after a slot's first runs on that slot's one congestion control
        assertThat(rec.sameCc).isEqualTo(rec.flowletsStarted - rec.slotCc.size());
    }

    @Test
    void dcqcnCutsCarryOverToTheSlotsNextFlowlet() {
        // 4 hosts per leaf share 2 spine uplinks (2:1): ECN marks cut DCQCN rates
        Recorder rec = run("transport.cc=dcqcn", "load_balancer.m=4");
        // a fresh DCQCN starts at line rate; some flowlets start below it, at the slot's cut rate
        assertThat(rec.starts).anySatisfy(s -> assertThat(s[2]).isLessThan(100_000_000_000L));
        assertThat(rec.sameCc).isEqualTo(rec.flowletsStarted - rec.slotCc.size());
    }
}
