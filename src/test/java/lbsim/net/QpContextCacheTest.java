package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import lbsim.engine.Simulation;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * The NIC's QP context cache ({@link NicConfig#qpCacheEntries()}, {@link NicConfig#qpMissPs()};
 * the model is in {@link Host}'s class comment). Clients on host 0 send 1 KB packets to host 1
 * over one ToR at 100 Gb/s: 80 ns of serialisation per packet. A TX miss stalls host 0's transmit
 * pipeline, an RX miss host 1's receive pipeline; with every packet missing on both sides the RX
 * stall (one miss time) is shorter than the gap between arrivals (serialisation + miss time), so
 * it adds latency and the rate is set by TX: serialisation / (serialisation + miss).
 */
class QpContextCacheTest {
    static final long RATE = 100_000_000_000L;
    static final int BYTES = 1000;
    static final long S = BYTES * 8 * Simulation.PS_PER_S / RATE;   // 80 ns
    static final long MISS = 3 * S;                                 // 240 ns: all-miss floor = 1/4 of line rate
    static final int C = 8;

    static NicConfig nic(int entries, long missPs, long arbitrationBytes) {
        return new NicConfig("test", NicConfig.Reorder.UNBOUNDED, 0, NicConfig.Timer.PER_QP, 0, entries, missPs, arbitrationBytes);
    }

    /** Host 0 and host 1 on one ToR; the sink records each delivery. */
    static final class Fabric {
        final Simulation sim = new Simulation(1);
        final Topology topo = LeafSpine.builder(1, 0, 2, 1, RATE, RATE, Simulation.PS_PER_US).build();
        final Network net = new Network(sim, topo, SwitchConfig.defaults(), sw -> (s, p, c) -> c[0]);
        final List<long[]> log = new ArrayList<>();   // {time, host, qp, seq, kind}
        final List<Client> clients = new ArrayList<>();

        Fabric() {
            net.setSink((h, p) -> {
                log.add(new long[] {sim.now(), h.id, p.qp, p.seq, p.kind});
                net.release(p);
            });
        }

        /** A client host 0 -> host 1 whose QP is created now: its contexts are installed at both NICs, as Transport does. */
        Client client(int id, long packets) {
            Client c = new Client(this, id, packets);
            clients.add(c);
            net.host(c.src).installContext(id, false);
            net.host(c.dst).installContext(id, true);
            return c;
        }

        /** {@code n} clients with endless data, activated in id order at time 0. */
        Fabric start(int n) {
            for (int i = 0; i < n; i++) net.host(0).activate(client(i, Long.MAX_VALUE));
            return this;
        }

        List<Long> times() {
            List<Long> t = new ArrayList<>();
            for (long[] e : log) t.add(e[0]);
            return t;
        }

        /** Packets delivered in [from, to). */
        long deliveredIn(long from, long to) {
            return log.stream().filter(e -> e[0] >= from && e[0] < to).count();
        }
    }

    static final class Client extends NicClient {
        final Fabric f;
        final int id;
        long left;
        long seq;
        int src = 0;
        int dst = 1;

        Client(Fabric f, int id, long packets) {
            this.f = f;
            this.id = id;
            this.left = packets;
            this.contextId = id;
        }

        @Override
        protected Packet pull() {
            if (left == 0) return null;
            left--;
            Packet p = f.net.newPacket();
            p.src = src;
            p.dst = dst;
            p.qp = id;
            p.ctx = id;   // the QP's own context, as QueuePair stamps it
            p.seq = seq++;
            p.wireBytes = BYTES;
            return p;
        }
    }

    static final long WARM = 50 * Simulation.PS_PER_US;
    static final long END = 200 * Simulation.PS_PER_US;

    /** Packets host 1 receives in the measurement window with {@code n} clients on host 0. */
    static long throughputPackets(int n, NicConfig cfg) {
        Fabric f = new Fabric();
        f.net.configureNics(cfg);
        f.start(n);
        f.sim.run(END);
        return f.deliveredIn(WARM, END);
    }

    @Test
    void throughputIsFlatUpToTheCacheSizeAndFallsBeyondIt() {
        NicConfig cfg = nic(C, MISS, 0);
        long line = (END - WARM) / S;
        long floor = (END - WARM) / (S + MISS);
        int[] ns = {1, C / 2, C, 2 * C, 4 * C, 16 * C, 64 * C};
        long[] got = new long[ns.length];
        for (int i = 0; i < ns.length; i++) got[i] = throughputPackets(ns[i], cfg);
        for (int i = 0; i < ns.length; i++) {
            if (ns[i] <= C) {
                assertThat(got[i]).as("N=%d", ns[i]).isBetween(line - 1, line + 1);   // every context held: line rate
            } else {
                assertThat(got[i]).as("N=%d", ns[i]).isLessThanOrEqualTo(got[i - 1]).isGreaterThanOrEqualTo(floor - 1);
            }
        }
        // random replacement: past the cache some packets still hit, fewer the more contexts share it
        // (LRU would miss on every packet at once); with many more contexts nearly every packet misses
        assertThat(got[3]).as("2C").isGreaterThan(floor + (line - floor) / 20).isLessThan(line / 2);
        assertThat(got[4]).as("4C").isLessThan(got[3]);
        assertThat(got[6]).as("64C").isBetween(floor - 1, floor + 2);
    }

    @Test
    void everyPacketMissingGivesSerialisationOverSerialisationPlusMiss() {
        // one entry and two QPs taking turns: every packet needs the context its predecessor evicted
        Fabric f = new Fabric();
        f.net.configureNics(nic(1, MISS, 0));
        f.start(2);
        f.sim.run(END);
        List<Long> t = f.times();
        int k = t.size() / 2;
        // exactly one packet per serialisation + miss time: S / (S + MISS) of line rate
        for (int i = k; i < k + 100; i++) assertThat(t.get(i + 1) - t.get(i)).isEqualTo(S + MISS);
        Host h0 = f.net.host(0);
        Host h1 = f.net.host(1);
        // every packet misses but client 0's second (pulled while it was still alone in the ring);
        // one more may wait for its context at either end
        assertThat(h0.txContextMisses()).isBetween(f.net.dataInjected() - 1, f.net.dataInjected());
        assertThat(h1.rxContextMisses()).isBetween(f.log.size() - 1L, (long) f.log.size());
        assertThat(h0.rxContextMisses()).isZero();
        assertThat(h1.txContextMisses()).isZero();
        assertThat(f.net.contextMisses()).isEqualTo(h0.contextMisses() + h1.contextMisses());
    }

    @Test
    void receiveMissesAloneLimitTheRateToSerialisationOverMiss() {
        for (long miss : new long[] {S / 2, 2 * S}) {
            Fabric f = new Fabric();
            f.net.host(1).configureNic(nic(1, miss, 0));   // host 0 never misses; host 1 misses on every packet
            f.start(2);
            f.sim.run(END);
            List<Long> t = f.times();
            int k = t.size() / 2;
            // a miss shorter than a packet hides behind the arrivals; a longer one sets the pace
            for (int i = k; i < k + 100; i++) assertThat(t.get(i + 1) - t.get(i)).isEqualTo(Math.max(S, miss));
        }
    }

    @Test
    void arbitrationAmortisesMisses() {
        long turns = 4;   // packets per turn: one miss per turn on each side
        long got = throughputPackets(2, nic(1, MISS, turns * BYTES));
        long expected = (END - WARM) * turns / (turns * S + MISS);
        assertThat(got).isBetween(expected - turns, expected + turns);
    }

    @Test
    void receivePipelineIsHeadOfLineAndEachMissAddsItsStall() {
        // arrival times: host 1 with an ideal NIC
        Fabric ideal = new Fabric();
        ideal.net.host(0).configureNic(nic(0, 0, 2 * BYTES));
        ideal.start(2);
        ideal.sim.run(10 * Simulation.PS_PER_US);
        List<Long> arrival = ideal.times();

        long miss = 5 * S;   // longer than two packets: arrivals queue behind each stall
        Fabric f = new Fabric();
        f.net.host(0).configureNic(nic(0, 0, 2 * BYTES));       // A A B B A A ...
        f.net.host(1).configureNic(nic(1, miss, 0));            // one entry: every change of QP misses
        f.start(2);
        f.sim.run(10 * Simulation.PS_PER_US);
        // the pipeline: a packet is processed once it has arrived and the one before it is done;
        // a miss (first of each pair) takes `miss`, a hit nothing
        long done = 0;
        for (int i = 0; i < f.log.size(); i++) {
            long start = Math.max(arrival.get(i), done);
            done = i % 2 == 0 ? start + miss : start;
            assertThat(f.log.get(i)[0]).as("delivery %d", i).isEqualTo(done);
            assertThat(f.log.get(i)[2]).isEqualTo((i / 2) % 2);
        }
        assertThat(f.log.size()).isGreaterThan(10);
        long misses = (f.log.size() + 1) / 2;   // the first of each pair, and maybe one still stalled
        assertThat(f.net.host(1).rxContextMisses()).isBetween(misses, misses + 1);
    }

    private static Packet control(Network net) {
        Packet ack = net.newPacket();
        ack.kind = Packet.ACK;
        ack.src = 0;
        ack.dst = 1;
        ack.qp = 99;
        ack.ctx = 99;
        ack.wireBytes = 64;
        return ack;
    }

    @Test
    void aTransmitStallHoldsEveryClientButNotControlPackets() {
        long miss = 10 * S;
        Fabric f = new Fabric();
        f.net.host(0).configureNic(nic(1, miss, 0));
        Host h0 = f.net.host(0);
        Client a = f.client(0, 2);
        Client b = f.client(1, 2);     // created second: its context evicted a's from the one entry
        h0.activate(a);
        h0.activate(b);                // stalled behind client 0's miss
        h0.sendControl(control(f.net));   // goes out at once, during the stall
        f.sim.run(Long.MAX_VALUE);

        Fabric ackAlone = new Fabric();
        ackAlone.net.host(0).sendControl(control(ackAlone.net));
        ackAlone.sim.run(Long.MAX_VALUE);
        Fabric dataAlone = new Fabric();
        dataAlone.net.host(0).activate(dataAlone.client(0, 1));
        dataAlone.sim.run(Long.MAX_VALUE);

        assertThat(f.log.get(0)[4]).isEqualTo(Packet.ACK);
        assertThat(f.log.get(0)[0]).isEqualTo(ackAlone.log.get(0)[0]);
        // data: A A B B (A was alone in the ring for its first pull, so it is at the head again);
        // B, activated during A's stall, waits for it; each change of QP misses (one entry)
        long d = dataAlone.log.get(0)[0];
        long[] expected = {d + miss, d + miss + S, d + 2 * miss + 2 * S, d + 2 * miss + 3 * S};
        for (int i = 1; i <= 4; i++) {
            assertThat(f.log.get(i)[2]).isEqualTo((i - 1) / 2);
            assertThat(f.log.get(i)[0]).isEqualTo(expected[i - 1]);
        }
        assertThat(h0.txContextMisses()).isEqualTo(2);
        assertThat(f.net.dataInjected()).isEqualTo(4);
        assertThat(f.net.pool().live()).isZero();
        assertThat(h0.idle()).isTrue();
    }

    @Test
    void everyPacketIsDeliveredOnceInOrderPerQpWithMisses() {
        Random rnd = new Random(7);
        for (int round = 0; round < 20; round++) {
            Fabric f = new Fabric();
            int entries = 1 + rnd.nextInt(6);
            long miss = 1 + rnd.nextInt((int) (4 * S));
            long arb = rnd.nextBoolean() ? 0 : rnd.nextInt(5 * BYTES);
            f.net.configureNics(nic(entries, miss, arb));
            int n = 1 + rnd.nextInt(20);
            long total = 0;
            List<Client> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Client c = f.client(i, 1 + rnd.nextInt(40));
                if (rnd.nextInt(3) == 0) {   // some QPs the other way: both hosts send and receive
                    c.src = 1;
                    c.dst = 0;
                }
                total += c.left;
                all.add(c);
            }
            for (Client c : all) f.net.host(c.src).activate(c);
            // and a second burst activated mid-run, while pipelines may be stalled
            f.sim.run(3 * Simulation.PS_PER_US);
            for (Client c : all) {
                if (rnd.nextBoolean()) {
                    long more = rnd.nextInt(10);
                    c.left += more;
                    total += more;
                    f.net.host(c.src).activate(c);
                }
            }
            f.sim.run(Long.MAX_VALUE);
            long[] next = new long[n];
            for (long[] e : f.log) {
                int qp = (int) e[2];
                assertThat(e[1]).isEqualTo(all.get(qp).dst);
                assertThat(e[3]).as("QP %d in order", qp).isEqualTo(next[qp]);
                next[qp]++;
            }
            for (int i = 0; i < n; i++) assertThat(next[i]).isEqualTo(all.get(i).seq);
            assertThat((long) f.log.size()).isEqualTo(total);
            assertThat(f.net.dataInjected()).isEqualTo(total);
            assertThat(f.net.dataDelivered()).isEqualTo(total);
            assertThat(f.net.pool().live()).isZero();
            assertThat(f.net.host(0).idle()).isTrue();
            assertThat(f.net.host(1).idle()).isTrue();
            assertThat(f.sim.pendingEvents()).isZero();
            if (n > entries) assertThat(f.net.contextMisses()).isGreaterThan(0);
        }
    }

    @Test
    void withoutContextMissesNothingChanges() {
        List<long[]> reference = null;
        for (NicConfig cfg : new NicConfig[] {null, NicConfig.IDEAL, nic(C, 0, 0), nic(0, MISS, 0)}) {
            Fabric f = new Fabric();
            if (cfg != null) f.net.configureNics(cfg);
            f.start(4 * C);
            f.sim.run(20 * Simulation.PS_PER_US);
            assertThat(f.net.contextMisses()).isZero();
            if (reference == null) reference = f.log;
            else {
                assertThat(f.log).hasSameSizeAs(reference);
                for (int i = 0; i < reference.size(); i++) assertThat(f.log.get(i)).isEqualTo(reference.get(i));
            }
        }
    }

    @Test
    void aFullCacheEvictsOneContextAndHoldsAtMostItsSize() {
        Fabric f = new Fabric();
        f.net.configureNics(nic(2, MISS, 0));
        Host h = f.net.host(0);
        Host.Contexts t = f.net.contexts();
        assertThat(t.use(h, 0)).isFalse();
        assertThat(t.use(h, 2)).isFalse();
        assertThat(t.use(h, 0)).isTrue();
        assertThat(t.use(h, 4)).isFalse();   // evicts 0 or 2
        assertThat(t.holds(h, 4)).isTrue();
        assertThat(t.holds(h, 0) ^ t.holds(h, 2)).as("exactly one of the two is evicted").isTrue();
        int kept = t.holds(h, 0) ? 0 : 2;
        assertThat(t.use(h, kept)).isTrue();
        // a QP's requester and responder contexts are separate entries at separate NICs
        Host h1 = f.net.host(1);
        assertThat(t.use(h1, 5)).isFalse();
        assertThat(t.holds(h, 4)).isTrue();
        assertThat(t.holds(h1, 5)).isTrue();
        assertThat(t.use(h1, 1000)).isFalse();   // grows with the ids
        assertThat(t.holds(h1, 1000)).isTrue();
        assertThat(t.holds(h1, 5)).isTrue();
    }
}
