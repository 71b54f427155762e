package lbsim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EventQueueTest {
    private static final EventHandler H1 = (k, a, o) -> { };
    private static final EventHandler H2 = (k, a, o) -> { };

    /** Reference entry: time, insertion number (also the arg payload). */
    private record Ref(long time, long seq) {}

    private static final Comparator<Ref> ORDER = Comparator.comparingLong(Ref::time).thenComparingLong(Ref::seq);

    /**
     * Ops: a value < 0 pops, a value >= 0 adds an event at that time. Times come from a
     * small range so ties are frequent; the queue must pop exactly like a PriorityQueue
     * ordered by (time, insertion order), and the payload must travel with its entry.
     */
    private static void checkAgainstReference(List<Integer> ops, int initialCapacity) {
        EventQueue q = new EventQueue(initialCapacity);
        PriorityQueue<Ref> ref = new PriorityQueue<>(ORDER);
        long seq = 0;
        for (int op : ops) {
            if (op < 0) {
                if (ref.isEmpty()) {
                    assertThat(q.isEmpty()).isTrue();
                    continue;
                }
                Ref want = ref.poll();
                assertThat(q.peekTime()).isEqualTo(want.time());
                q.pop();
                assertPopped(q, want);
                assertKnownNext(q, ref.peek());
            } else {
                Object payload = Long.valueOf(seq);
                q.add(op, seq % 2 == 0 ? H1 : H2, (int) (seq % 7), seq, payload);
                ref.add(new Ref(op, seq));
                seq++;
            }
            assertThat(q.size()).isEqualTo(ref.size());
        }
        while (!ref.isEmpty()) {
            Ref want = ref.poll();
            q.pop();
            assertPopped(q, want);
        }
        assertThat(q.isEmpty()).isTrue();
    }

    /** After a pop the queue names the next event (what the loop prefetches for): the reference's next, with its handler and kind. */
    private static void assertKnownNext(EventQueue q, Ref next) {
        if (next == null) {
            assertThat(q.knownMinHandler()).isNull();
            return;
        }
        assertThat(q.knownMinHandler()).isSameAs(next.seq() % 2 == 0 ? H1 : H2);
        assertThat(q.knownMinKind()).isEqualTo((int) (next.seq() % 7));
    }

    private static void assertPopped(EventQueue q, Ref want) {
        assertThat(q.poppedTime).isEqualTo(want.time());
        assertThat(q.poppedArg).as("insertion order among equal times").isEqualTo(want.seq());
        assertThat(q.poppedKind).isEqualTo((int) (want.seq() % 7));
        assertThat(q.poppedHandler).isSameAs(want.seq() % 2 == 0 ? H1 : H2);
        assertThat(q.poppedObj).isEqualTo(Long.valueOf(want.seq()));
    }

    @Test
    void popsInTimeThenInsertionOrderLikeAReferenceHeap() {
        qt().withFixedSeed(42L).withExamples(300)
                .forAll(lists().of(integers().between(-3, 12)).ofSizeBetween(0, 400))
                .checkAssert(ops -> checkAgainstReference(ops, 16));
    }

    @Test
    void wideTimeRangeAndLargeTimes() {
        qt().withFixedSeed(7L).withExamples(100)
                .forAll(lists().of(integers().between(-1_000_000, 1_000_000)).ofSizeBetween(0, 600))
                .checkAssert(ops -> {
                    List<Integer> shifted = new ArrayList<>();
                    for (int o : ops) shifted.add(o < -500_000 ? -1 : o + 1_000_000);
                    checkAgainstReference(shifted, 1);
                });
    }

    /**
     * Owned records (one per component and kind, never pending twice) pop in the same (time,
     * insertion) order as pooled ones, keep their handler and kind, and are never handed out
     * by the pool after they pop: a pooled add right after must not overwrite one.
     */
    @Test
    void ownedRecordsInterleaveWithPooledOnesAndStayOutOfThePool() {
        SplittableRandom rnd = new SplittableRandom(5);
        EventQueue q = new EventQueue(16);
        EventQueue.Ev[] owned = new EventQueue.Ev[8];
        boolean[] pending = new boolean[owned.length];
        for (int i = 0; i < owned.length; i++) owned[i] = new EventQueue.Ev(H1, 100 + i);
        PriorityQueue<long[]> ref = new PriorityQueue<>(Comparator.<long[]>comparingLong(r -> r[0]).thenComparingLong(r -> r[1]));
        long now = 0;
        long seq = 0;
        for (int step = 0; step < 20_000; step++) {
            int op = rnd.nextInt(4);
            if (op == 0 && !ref.isEmpty()) {
                long[] want = ref.poll();
                q.pop();
                now = want[0];
                assertThat(q.poppedTime).isEqualTo(want[0]);
                assertThat(q.poppedKind).isEqualTo((int) want[2]);
                if (want[2] >= 100) {
                    assertThat(q.poppedObj).as("an owned record carries no argument").isNull();
                    assertThat(q.poppedHandler).isSameAs(H1);
                    pending[(int) want[2] - 100] = false;
                } else {
                    assertThat(q.poppedObj).isEqualTo(Long.valueOf(want[1]));
                    assertThat(q.poppedHandler).isSameAs(H2);
                }
            } else {
                long t = now + rnd.nextInt(3000);
                int i = rnd.nextInt(owned.length);
                if (op == 1 && !pending[i]) {
                    q.addOwned(owned[i], t);
                    pending[i] = true;
                    ref.add(new long[] {t, seq, 100 + i});
                } else {
                    q.add(t, H2, 7, 0, Long.valueOf(seq));
                    ref.add(new long[] {t, seq, 7});
                }
                seq++;
            }
            assertThat(q.size()).isEqualTo(ref.size());
        }
    }

    @Test
    void growsFarBeyondItsInitialCapacity() {
        SplittableRandom rnd = new SplittableRandom(3);
        List<Integer> ops = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) ops.add(rnd.nextInt(50));      // fill: many doublings from 16
        for (int i = 0; i < 30_000; i++) ops.add(rnd.nextInt(4) == 0 ? -1 : rnd.nextInt(100)); // churn: slot reuse
        checkAgainstReference(ops, 16);
    }

    /**
     * Like a simulation: events are scheduled after the last popped time, most within a few
     * wheel buckets, some beyond the wheel window (timeouts), some exactly on bucket and window
     * edges, some at equal times; a few are scheduled in the "past", which the queue must still
     * order exactly (they go to the overflow heap).
     */
    @Test
    void simulationLikeDelaysAcrossTheWheelWindowAndItsEdges() {
        qt().withFixedSeed(11L).withExamples(60)
                .forAll(integers().between(0, Integer.MAX_VALUE))
                .checkAssert(seed -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    EventQueue q = new EventQueue(16);
                    PriorityQueue<Ref> ref = new PriorityQueue<>(ORDER);
                    long now = 0;
                    long seq = 0;
                    for (int i = 0; i < 4000; i++) {
                        if (rnd.nextInt(3) == 0 && !ref.isEmpty()) {
                            Ref want = ref.poll();
                            assertThat(q.peekTime()).isEqualTo(want.time());
                            q.pop();
                            assertPopped(q, want);
                            now = want.time();
                        } else {
                            long d = switch (rnd.nextInt(8)) {
                                case 0 -> 0;
                                case 1 -> EventQueue.WIDTH * rnd.nextInt(4) - rnd.nextInt(2);
                                case 2 -> EventQueue.HORIZON - 1 - (now & (EventQueue.WIDTH - 1)) + rnd.nextInt(3);
                                case 3 -> EventQueue.HORIZON * rnd.nextInt(1, 40) + rnd.nextInt(5000);
                                case 4 -> rnd.nextLong(EventQueue.HORIZON * 2);
                                case 5 -> -rnd.nextLong(Math.min(now, 20_000) + 1); // before the last pop
                                default -> rnd.nextInt(20_000);
                            };
                            long t = Math.max(0, now + d);
                            q.add(t, seq % 2 == 0 ? H1 : H2, (int) (seq % 7), seq, Long.valueOf(seq));
                            ref.add(new Ref(t, seq));
                            seq++;
                        }
                        assertThat(q.size()).isEqualTo(ref.size());
                    }
                    while (!ref.isEmpty()) {
                        Ref want = ref.poll();
                        assertThat(q.peekTime()).isEqualTo(want.time());
                        q.pop();
                        assertPopped(q, want);
                    }
                    assertThat(q.isEmpty()).isTrue();
                });
    }

    /** A handler that is its own event record, as network ports are. */
    private static final class SelfRecorded extends HotEventHandler {
        SelfRecorded(int kind) {
            super(kind);
        }

        @Override
        public void onEvent(int kind, long arg, Object obj) {}
    }

    /**
     * Pops the way the simulation loop does (popNotAfter with a horizon, no peek first), with
     * events parked in the overflow heap at the very times that later near inserts land on, and
     * with a handler that is its own record: the order is (time, insertion) like the reference,
     * a horizon before the next event pops nothing, and the self record never enters the pool.
     */
    @Test
    void loopStylePopsAgreeWithTheReferenceAcrossHeapAndWheelTies() {
        qt().withFixedSeed(17L).withExamples(60)
                .forAll(integers().between(0, Integer.MAX_VALUE))
                .checkAssert(seed -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    EventQueue q = new EventQueue(16);
                    SelfRecorded self = new SelfRecorded(42);
                    boolean selfPending = false;
                    PriorityQueue<long[]> ref = new PriorityQueue<>(Comparator.<long[]>comparingLong(r -> r[0]).thenComparingLong(r -> r[1]));
                    long[] farTimes = new long[8];   // times first scheduled from far away (heap), reused later from near
                    for (int i = 0; i < farTimes.length; i++) farTimes[i] = EventQueue.HORIZON * (i + 1) + rnd.nextInt(3) * EventQueue.WIDTH;
                    long now = 0;
                    long seq = 0;
                    for (int i = 0; i < 3000; i++) {
                        int op = rnd.nextInt(5);
                        if (op <= 1) {
                            long until = now + (op == 0 ? Long.MAX_VALUE / 4 : rnd.nextInt(2000));
                            long[] want = ref.peek();
                            EventQueue.Ev e = q.popNotAfter(until);
                            if (want == null || want[0] > until) {
                                assertThat(e).isNull();
                                continue;
                            }
                            ref.poll();
                            assertThat(e).isNotNull();
                            assertThat(e.time).isEqualTo(want[0]);
                            assertThat(e.seq).isEqualTo(want[1]);
                            if (want[2] == 42) {
                                assertThat(e).isSameAs(self);
                                assertThat(e.handler).isSameAs(self);
                                selfPending = false;
                            } else {
                                assertThat(e.obj).isEqualTo(Long.valueOf(want[1]));
                            }
                            now = e.time;
                            q.recycle(e);
                        } else {
                            long t = switch (rnd.nextInt(4)) {
                                case 0 -> farTimes[rnd.nextInt(farTimes.length)];
                                case 1 -> now + rnd.nextInt(3);
                                default -> now + rnd.nextInt(4 * (int) EventQueue.WIDTH);
                            };
                            if (t < now) t = now;
                            if (op == 2 && !selfPending) {
                                q.addOwned(self, t);
                                selfPending = true;
                                ref.add(new long[] {t, seq, 42});
                            } else {
                                q.add(t, H1, 1, 0, Long.valueOf(seq));
                                ref.add(new long[] {t, seq, 1});
                            }
                            seq++;
                        }
                        assertThat(q.size()).isEqualTo(ref.size());
                    }
                });
    }

    @Test
    void allEqualTimesPopFifo() {
        EventQueue q = new EventQueue(16);
        for (int i = 0; i < 1000; i++) q.add(5, H1, 0, i, null);
        for (int i = 0; i < 1000; i++) {
            q.pop();
            assertThat(q.poppedArg).isEqualTo(i);
        }
        assertThat(q.isEmpty()).isTrue();
    }

    @Test
    void recordsAreReusedSoAStreamOfEventsCreatesNoMoreThanArePendingAtOnce() {
        EventQueue q = new EventQueue(16);
        SplittableRandom rnd = new SplittableRandom(3);
        long now = 0;
        int maxPending = 0;
        for (int i = 0; i < 200_000; i++) {
            // keep between 1 and 10 events pending, some due far beyond the wheel (the heap)
            while (q.size() < 1 + rnd.nextInt(10)) {
                long t = now + (rnd.nextInt(8) == 0 ? 10 * EventQueue.HORIZON : rnd.nextInt(1_000_000));
                q.add(t, H1, 0, i, null);
            }
            maxPending = Math.max(maxPending, q.size());
            q.pop();
            now = q.poppedTime;
        }
        assertThat(q.recordsAllocated()).isBetween(1L, (long) maxPending);
    }
}
