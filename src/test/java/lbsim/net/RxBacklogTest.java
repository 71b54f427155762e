package lbsim.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The receive pipeline's backlog keeps packets packed: whatever their field values, they come out
 * in arrival order equal to what went in, and the packed ones do not hold packet objects.
 */
class RxBacklogTest {
    /** Fields that only mean something on a wire or inside a port, never across a host's receive pipeline. */
    private static final Set<String> TRANSIENT = Set.of("touch", "next", "nextArrivalPs", "lb");

    /** Every field of a packet (found by reflection, so a field added later is covered too), except {@link #TRANSIENT}. */
    private static List<Field> fields() {
        List<Field> out = new ArrayList<>();
        for (Class<?> c = Packet.class; c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || TRANSIENT.contains(f.getName())) continue;
                f.setAccessible(true);
                out.add(f);
            }
        }
        return out;
    }

    private static final List<Field> FIELDS = fields();

    private static List<Object> snapshot(Packet p) throws IllegalAccessException {
        List<Object> v = new ArrayList<>();
        for (Field f : FIELDS) v.add(f.getName() + "=" + f.get(p));
        return v;
    }

    /** Mostly the small values real packets carry (so most fit), sometimes anything of the field's type. */
    private static void randomise(Packet p, Random r) throws IllegalAccessException {
        for (Field f : FIELDS) {
            boolean wild = r.nextInt(60) == 0;
            Class<?> t = f.getType();
            boolean minusOne = r.nextInt(30) == 0;   // "none" in several fields
            if (t == int.class) f.setInt(p, wild ? r.nextInt() : minusOne ? -1 : r.nextInt(16));
            else if (t == long.class) f.setLong(p, wild ? r.nextLong() : minusOne ? -1 : r.nextInt(1 << 20));
            else if (t == byte.class) f.setByte(p, wild ? (byte) r.nextInt() : (byte) r.nextInt(33));
            else if (t == boolean.class) f.setBoolean(p, r.nextBoolean());
            else throw new AssertionError("a packet field of a type this test does not draw: " + f);
        }
        if (r.nextInt(40) == 0) p.lb().cwEpoch = 3;   // a switch load balancer's header: kept whole
        if (r.nextInt(10) != 0) p.sackBase = p.sackBits = 0;   // only coalesced ACKs carry a SACK bitmap
    }

    @Test
    void packetsComeOutInOrderEqualToWhatWentIn() throws IllegalAccessException {
        for (long seed = 1; seed <= 20; seed++) {
            Random r = new Random(seed);
            PacketPool pool = new PacketPool();
            RxBacklog backlog = new RxBacklog(pool);
            ArrayDeque<List<Object>> expected = new ArrayDeque<>();
            ArrayDeque<Packet> kept = new ArrayDeque<>();   // objects that must come back as themselves (NONE: packed)
            int packed = 0, added = 0;
            for (int step = 0; step < 6000; step++) {
                if (r.nextInt(5) < 3 || backlog.isEmpty()) {   // adds outrun polls: the line crosses blocks
                    Packet p = pool.get();
                    randomise(p, r);
                    expected.add(snapshot(p));
                    boolean fits = RxBacklog.fits(p);
                    if (fits) packed++;
                    added++;
                    kept.add(fits ? NONE : p);
                    backlog.add(p);
                } else {
                    Packet p = backlog.poll();
                    assertThat(snapshot(p)).isEqualTo(expected.remove());
                    Packet whole = kept.remove();
                    if (whole != NONE) assertThat(p).isSameAs(whole);
                    pool.release(p);
                }
                assertThat(backlog.size()).isEqualTo(expected.size());
                assertThat(pool.live()).as("packed packets stay live").isEqualTo(expected.size());
            }
            while (!backlog.isEmpty()) {
                Packet p = backlog.poll();
                assertThat(snapshot(p)).isEqualTo(expected.remove());
                pool.release(p);
            }
            assertThat(expected).isEmpty();
            assertThat(pool.live()).isZero();
            assertThat(packed).as("both kinds are drawn").isBetween(added / 5, added * 4 / 5);
        }
    }

    private static final Packet NONE = new Packet();

    @Test
    void aLongLineOfPackedPacketsHoldsNoPacketObjects() {
        PacketPool pool = new PacketPool();
        RxBacklog backlog = new RxBacklog(pool);
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            Packet p = pool.get();   // arrives over the wire: the pool's object of the packet parked before
            p.qp = i;
            p.seq = i / 7;
            p.wireBytes = 4160;
            p.payloadBytes = 4096;
            p.sentAtPs = 1_000_000L * i;
            backlog.add(p);
        }
        assertThat(pool.allocated()).as("one packet object for the whole line").isEqualTo(1);
        assertThat(pool.live()).isEqualTo(n);
        long[] seen = new long[n];
        for (int i = 0; i < n; i++) {
            Packet p = backlog.poll();
            seen[i] = p.qp;
            assertThat(p.sentAtPs).isEqualTo(1_000_000L * i);
            assertThat(p.seq).isEqualTo(i / 7);
            pool.release(p);
        }
        long[] order = new long[n];
        Arrays.setAll(order, i -> i);
        assertThat(seen).isEqualTo(order);
        assertThat(pool.live()).isZero();
    }
}
