package lbsim.experiment;

import lbsim.engine.RandomStreams;
import lbsim.topology.Routing;
import lbsim.topology.Topology;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;

/**
 * How much simulating a scenario costs, estimated before running it from the workload and the
 * fabric alone, so a choice made on it (how many seeds {@code compare} runs by default) is the
 * same on every machine and under any load, unlike a wall-clock or CPU-time measurement.
 */
public final class RunSize {
    /**
     * A run of at most this many {@link #idealPacketHops ideal packet-hops} is small. The embedded
     * default of {@code compare} (64 MB recursive-doubling all-reduce on 128 GPUs) has 8.8 million
     * (its run counts 17.6 million packet-hops, ACKs included, in about 1.5 CPU-seconds on a
     * 2-core VM in 2026-11), so a run at the limit takes a few CPU-seconds.
     */
    public static final long SMALL_RUN_PACKET_HOPS = 16_000_000L;

    /** Seeds {@code compare} runs per scheme by default on a small run (on a larger one, 1). */
    public static final int SMALL_RUN_SEEDS = 3;

    private RunSize() {}

    /**
     * The sum over the workload's flows of the flow's data packets (size over the MTU, rounded up)
     * times the links on its shortest path (the NIC link and the ToR's link to the receiver
     * included): the packet-hops of the data of a run without loss, retransmission or detour.
     * The workload is drawn from the scenario's seed, as the run draws it.
     */
    public static long idealPacketHops(Scenario sc) {
        Topology topo = sc.topology().build(sc.file());
        FlowGraph graph = sc.workload().build(topo, new RandomStreams(sc.seed()).stream("workload"));
        Routing routing = topo.routing();
        long mtu = sc.topology().mtuBytes();
        long hops = 0;
        for (FlowSpec f : graph.flows()) {
            // a host outside the fabric or a flow to itself is the run's error to report, not the estimate's
            if (f.src() >= topo.hostCount() || f.dst() >= topo.hostCount() || f.src() == f.dst()) continue;
            long packets = (f.sizeBytes() + mtu - 1) / mtu;
            hops += packets * routing.bestPath(f.src(), f.dst()).links().length;
        }
        return hops;
    }

    /** {@link #SMALL_RUN_SEEDS} when {@code sc} is small ({@link #SMALL_RUN_PACKET_HOPS}), else 1. */
    public static int defaultSeeds(Scenario sc) {
        return idealPacketHops(sc) <= SMALL_RUN_PACKET_HOPS ? SMALL_RUN_SEEDS : 1;
    }
}
