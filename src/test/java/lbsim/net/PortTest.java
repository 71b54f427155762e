package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import lbsim.engine.Simulation;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * A port's timing contract on one leaf with three hosts (100 Gbps, 1 us links): a packet
 * leaves the buffer when its serialisation starts, goes on the wire then and arrives at end
 * of serialisation plus latency; an end-of-serialisation event exists only when a packet
 * waits; counters and link failures still act at the end of serialisation.
 */
class PortTest {
    static final long RATE = 100_000_000_000L;
    static final long LATENCY_PS = 1_000_000;
    static final int BYTES = 4160;
    static final long SER_PS = BYTES * 80L;   // 8e12 / 100e9 = 80 ps per byte

    final Simulation sim = new Simulation(1);
    final Topology topo = LeafSpine.builder(1, 0, 3, 1, RATE, RATE, LATENCY_PS).build();
    final Network net = new Network(sim, topo, SwitchConfig.defaults(), sw -> (s, p, c) -> c[0]);
    final List<long[]> arrivals = new ArrayList<>();   // {time, host, seq}
    final Switch leaf = net.switchNode(topo.nodeId("leaf0"));

    PortTest() {
        net.setSink((h, p) -> {
            arrivals.add(new long[] {sim.now(), h.id, p.seq});
            net.release(p);
        });
    }

    Packet send(int src, int dst, long seq) {
        Packet p = net.newPacket();
        p.src = src;
        p.dst = dst;
        p.seq = seq;
        p.wireBytes = BYTES;
        net.host(src).sendAtDataPriority(p);
        return p;
    }

    Port leafPortTo(int host) {
        for (int i = 0; i < leaf.portCount(); i++) if (leaf.port(i).peer().id == host) return leaf.port(i);
        throw new AssertionError("no port to h" + host);
    }

    int link(String name) {
        for (int l = 0; l < topo.linkCount(); l++) if (topo.linkName(l).equals(name)) return l;
        throw new AssertionError(name);
    }

    @Test
    void aPacketOnAnIdlePathCostsOneEventPerHop() {
        send(0, 1, 7);
        sim.run(Long.MAX_VALUE);
        assertThat(arrivals).hasSize(1);
        assertThat(arrivals.get(0)[0]).as("store and forward: two serialisations and two latencies")
                .isEqualTo(2 * (SER_PS + LATENCY_PS));
        assertThat(sim.eventsProcessed()).as("its two arrivals, no end of serialisation").isEqualTo(2);
    }

    @Test
    void aWaitingPacketStartsExactlyAtTheEndOfTheOneBeforeIt() {
        send(0, 1, 1);
        send(0, 1, 2);
        sim.run(Long.MAX_VALUE);
        assertThat(arrivals).extracting(a -> a[2]).containsExactly(1L, 2L);
        assertThat(arrivals.get(1)[0] - arrivals.get(0)[0]).isEqualTo(SER_PS);
        // four arrivals, and one end of serialisation at the NIC, where the second packet waited
        assertThat(sim.eventsProcessed()).isEqualTo(5);
    }

    @Test
    void bytesLeaveTheSwitchBufferWhenTheirSerialisationStarts() {
        send(0, 1, 1);
        send(2, 1, 2);
        Port toH1 = leafPortTo(1);
        int out = toH1.local;
        // both arrive at the leaf at SER + LATENCY: one starts, the other waits behind it
        sim.run(SER_PS + LATENCY_PS + SER_PS / 2);
        assertThat(toH1.isBusy()).isTrue();
        assertThat(toH1.queuedBytes()).isEqualTo(BYTES);
        assertThat(toH1.bufEgress).as("only the waiting packet holds buffer").isEqualTo(BYTES);
        assertThat(leaf.egressBytes(out)).as("the load load-aware schemes see: waiting + serialising").isEqualTo(2 * BYTES);
        sim.run(2 * SER_PS + LATENCY_PS + SER_PS / 2);
        assertThat(toH1.bufEgress).isZero();
        assertThat(leaf.egressBytes(out)).isEqualTo(BYTES);
        sim.run(Long.MAX_VALUE);
        assertThat(arrivals).hasSize(2);
        assertThat(leaf.egressBytes(out)).isZero();
    }


    @Test
    void anIdlePortPausedForDataHoldsDataUntilResumedButLetsControlPass() {
        Port toH2 = leafPortTo(2);
        long resumeAt = 5 * LATENCY_PS;
        toH2.onEvent(Port.PFC_FRAME, 1, null);               // paused while nothing waits on it
        sim.schedule(resumeAt, toH2, Port.PFC_FRAME, 0, null);
        send(0, 2, 1);
        Packet ack = net.newPacket();
        ack.src = 1;
        ack.dst = 2;
        ack.seq = 2;
        ack.wireBytes = 64;
        net.host(1).sendControl(ack);
        sim.run(Long.MAX_VALUE);
        assertThat(arrivals).extracting(a -> a[2]).as("control passes the paused data queue").containsExactly(2L, 1L);
        assertThat(arrivals.get(0)[0]).isEqualTo(2 * (64 * 80L + LATENCY_PS));
        assertThat(arrivals.get(1)[0]).as("the data packet waits at the leaf until the resume")
                .isEqualTo(resumeAt + SER_PS + LATENCY_PS);
        assertThat(toH2.stats().pausedPs()).isEqualTo(resumeAt);
    }

    @Test
    void aPacketPassingAnIdlePortStillLetsItsIngressResume() {
        Port fromH0 = net.host(0).nic();   // holds the leaf's PFC ingress account of that link
        fromH0.ingressPaused = true;        // paused earlier; a packet in flight then still arrives
        send(0, 1, 1);
        sim.run(Long.MAX_VALUE);
        assertThat(arrivals).hasSize(1);
        assertThat(fromH0.ingressHeld).isZero();
        assertThat(fromH0.ingressPaused).as("its departure found the account empty: XON").isFalse();
    }
    @Test
    void countersIncludeAPacketOnlyOnceItsSerialisationHasEnded() {
        send(0, 1, 1);
        Port nic = net.host(0).nic();
        sim.run(SER_PS / 2);
        assertThat(nic.isBusy()).isTrue();
        assertThat(nic.stats().txBytes()).isZero();
        assertThat(nic.stats().txPackets()).isZero();
        sim.run(SER_PS);
        assertThat(nic.isBusy()).isFalse();
        assertThat(nic.stats().txBytes()).isEqualTo(BYTES);
        assertThat(nic.stats().txDataPackets()).isEqualTo(1);
    }

    @Test
    void aLinkThatFailsDuringASerialisationLosesThatPacket() {
        send(0, 1, 1);
        send(0, 1, 2);
        int h0 = link("h0-leaf0");
        // the first packet has ended and propagates; the second is half serialised
        sim.run(SER_PS + SER_PS / 2);
        net.setLinkUp(h0, false);
        sim.run(Long.MAX_VALUE);
        assertThat(arrivals).extracting(a -> a[2]).as("the first was on the wire before the failure").containsExactly(1L);
        assertThat(net.host(0).nic().stats().wireDrops()).isEqualTo(1);
        assertThat(net.dataDropped()).isEqualTo(1);
        assertThat(net.pool().live()).isZero();
    }

    @Test
    void aLinkThatRecoversBeforeTheEndOfASerialisationDeliversIt() {
        send(0, 1, 1);
        int h0 = link("h0-leaf0");
        sim.run(SER_PS / 4);
        net.setLinkUp(h0, false);
        sim.run(SER_PS / 2);
        net.setLinkUp(h0, true);
        sim.run(Long.MAX_VALUE);
        assertThat(arrivals).hasSize(1);
        assertThat(net.dataDropped()).isZero();
    }

    /**
     * Random traffic from h0 and h2 to h1 (sizes from a control packet to an MTU, random start
     * times) while the h0 link fails and recovers at random times: every packet is delivered or
     * counted as dropped, none is left in the pool, each source's packets arrive in the order
     * they were sent, and none arrives before its store-and-forward minimum.
     */
    @Test
    void randomTrafficAndLinkFlapsConserveEveryPacketInOrder() {
        qt().withFixedSeed(11L).withExamples(60)
                .forAll(lists().of(integers().between(0, 2_000_000)).ofSizeBetween(1, 60), integers().between(0, 3_000_000),
                        integers().between(0, 2_000_000))
                .checkAssert((ops, downAt, downFor) -> {
                    PortTest t = new PortTest();
                    long[] sentAt = new long[ops.size()];
                    int[] sizes = new int[ops.size()];
                    for (int i = 0; i < ops.size(); i++) {
                        int op = ops.get(i);
                        int src = op % 2 == 0 ? 0 : 2;
                        int bytes = new int[] {64, 1000, BYTES}[op % 3];
                        long at = op * 1_000L;
                        long seq = i;
                        sentAt[i] = at;
                        sizes[i] = bytes;
                        t.sim.scheduleAt(at, (k, a, o) -> {
                            Packet p = t.net.newPacket();
                            p.src = src;
                            p.dst = 1;
                            p.seq = seq;
                            p.wireBytes = bytes;
                            t.net.host(src).sendAtDataPriority(p);
                        }, 0, 0, null);
                    }
                    int h0 = t.link("h0-leaf0");
                    t.sim.scheduleAt(downAt * 1_000L, (k, a, o) -> t.net.setLinkUp(h0, false), 0, 0, null);
                    t.sim.scheduleAt((downAt + (long) downFor) * 1_000L, (k, a, o) -> t.net.setLinkUp(h0, true), 0, 0, null);
                    t.sim.run(Long.MAX_VALUE);
                    assertThat(t.arrivals.size() + t.net.dataDropped()).isEqualTo(ops.size());
                    assertThat(t.net.pool().live()).isZero();
                    // a source's packets leave in the order they were sent: by send time, then by scheduling order
                    long[] lastKey = {-1, -1, -1};
                    for (long[] a : t.arrivals) {
                        int i = (int) a[2];
                        int src = ops.get(i) % 2 == 0 ? 0 : 2;
                        long key = sentAt[i] * ops.size() + i;
                        assertThat(key).as("FIFO per source").isGreaterThan(lastKey[src]);
                        lastKey[src] = key;
                        assertThat(a[0]).isGreaterThanOrEqualTo(sentAt[i] + 2 * (sizes[i] * 80L + LATENCY_PS));
                    }
                    if (downFor == 0) assertThat(t.net.dataDropped()).isZero();
                });
    }
}
