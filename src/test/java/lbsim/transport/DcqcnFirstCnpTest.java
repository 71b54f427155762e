package lbsim.transport;

import static org.assertj.core.api.Assertions.assertThat;

import lbsim.engine.EventHandler;
import lbsim.engine.Simulation;
import lbsim.lb.Scheme;
import lbsim.lb.SchemeContext;
import lbsim.lb.Schemes;
import lbsim.net.Host;
import lbsim.net.Network;
import lbsim.net.Packet;
import lbsim.net.SwitchConfig;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import lbsim.workload.WorkloadDriver;
import org.junit.jupiter.api.Test;

/**
 * DCQCN's first CNP (HPCC ns-3 rdma-hw.cc cnp_received_mlx): alpha = 1, so the first cut halves the
 * rate whenever the QP opened; the receiver sends a CNP for every CE-marked packet (no NP gate); the rate
 * floor is HPCC run.py's.
 */
class DcqcnFirstCnpTest {
    private static final long RATE = 100_000_000_000L;

    /** One 100 G DCQCN flow from host 0 to host 3 starting at {@code startUs}. */
    private static final class Rig implements EventHandler {
        final Simulation sim = new Simulation(1);
        final Network net;
        final Transport tr;
        double rateAfterCnp = -1;

        Rig(long startUs) {
            this(startUs, "hpcc");
        }

        Rig(long startUs, String dcqcnParams) {
            Topology topo = LeafSpine.builder(2, 2, 3, 1, RATE, RATE, Simulation.PS_PER_US).build();
            Scheme scheme = Schemes.create("ecmp", new SchemeContext(sim, topo));
            net = new Network(sim, topo, SwitchConfig.defaults(), scheme.switches());
            TransportConfig cfg = new TransportConfig("dcqcn", "go-back-n", 4096, 64, 64, 1, Simulation.PS_PER_MS,
                    500 * Simulation.PS_PER_US, 116_896, 1.0 / 16, 1.0, 0, 0, 3, 0,
                    RecoveryParams.defaults().withBdp(116_896));
            cfg = new TransportConfig(cfg.cc(), cfg.lossRecovery(), cfg.mtuBytes(), cfg.headerBytes(), cfg.ackBytes(), cfg.ackEvery(),
                    cfg.timeoutPs(), cfg.nackIntervalPs(), cfg.initCwndBytes(), cfg.dctcpG(), cfg.dctcpAlpha0(), cfg.fixedRateBps(),
                    cfg.swiftBaseTargetPs(), cfg.switchHops(), cfg.baseRttPs(), cfg.recovery(), cfg.rtoBackoff(), cfg.nic(),
                    cfg.dctcpRate(), cfg.uecTargetQdelayPs(), cfg.pacingJitter(), dcqcnParams, cfg.uecQaGate());
            FlowGraph g = new FlowGraph();
            g.add(FlowSpec.simple(0, 0, 3, 20_000_000L, startUs * Simulation.PS_PER_US));
            WorkloadDriver[] d = new WorkloadDriver[1];
            tr = new Transport(sim, net, cfg, scheme.host(), f -> d[0].onFlowDelivered(f));
            d[0] = new WorkloadDriver(sim, tr, g);
            d[0].start();
        }

        Dcqcn cc() {
            return (Dcqcn) tr.queuePairs().get(0).congestionControl();
        }

        @Override
        public void onEvent(int kind, long arg, Object obj) {
            tr.queuePairs().get(0).onCnp();
            rateAfterCnp = cc().rateBps();
        }
    }

    private static double firstCut(long startUs, long cnpUs) {
        Rig rig = new Rig(startUs);
        rig.sim.scheduleAt(cnpUs * Simulation.PS_PER_US, rig, 1, 0, null);
        rig.sim.run((cnpUs + 1) * Simulation.PS_PER_US);
        assertThat(rig.cc().alpha()).isEqualTo(1.0);
        return rig.rateAfterCnp;
    }

    @Test
    void theFirstCutHalvesTheRateWheneverTheQpOpened() {
        // before the fix alpha decayed from simulation time 0: 51.9, 93.2 and 99.0 Gbps
        assertThat(firstCut(0, 10)).isEqualTo(RATE / 2.0);
        assertThat(firstCut(500, 510)).isEqualTo(RATE / 2.0);
        assertThat(firstCut(990, 1000)).isEqualTo(RATE / 2.0);
    }

    @Test
    void underSustainedMarkingEveryMarkedPacketBringsACnp() {
        Rig rig = new Rig(0);
        long[] marked = new long[1];
        long[] cnps = new long[1];
        // mark every data packet at the receiver: sustained congestion on the path
        rig.net.setSink((Host h, Packet p) -> {
            if (p.kind == Packet.DATA) {
                p.ecnMarked = true;
                marked[0]++;
            }
            if (p.kind == Packet.CNP) cnps[0]++;
            rig.tr.deliver(h, p);
        });
        rig.sim.run(200 * Simulation.PS_PER_US);
        assertThat(marked[0]).isGreaterThan(30);
        // CNPs still in flight at the end: at most one base RTT's worth
        assertThat(cnps[0]).isBetween(marked[0] - 10, marked[0]);
    }

    @Test
    void cutsStopAtHpccRunPyMinimumRate() {
        // HPCC simulation/run.py MIN_RATE 1000Mb/s
        assertThat(rateAfterManyCuts("hpcc")).isEqualTo(1e9);
    }

    @Test
    void withConWeavesParametersCutsStopAtItsMinimumRate() {
        // conweave-ns3 run.py MIN_RATE 100Mb/s (transport.dcqcn_params: conweave, Hopper §4.1's base)
        assertThat(rateAfterManyCuts("conweave")).isEqualTo(1e8);
    }

    private static double rateAfterManyCuts(String dcqcnParams) {
        Rig rig = new Rig(0, dcqcnParams);
        for (long us = 10; us <= 300; us += 4) rig.sim.scheduleAt(us * Simulation.PS_PER_US, rig, 1, 0, null);
        rig.sim.run(301 * Simulation.PS_PER_US);
        return rig.rateAfterCnp;
    }
}
