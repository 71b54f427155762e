package lbsim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulationTest {
    @Test
    void runsEventsInTimeOrderAndAdvancesTheClock() {
        Simulation sim = new Simulation(1);
        List<String> log = new ArrayList<>();
        EventHandler h = (kind, arg, obj) -> log.add(sim.now() + ":" + obj);
        sim.schedule(30, h, 0, 0, "c");
        sim.schedule(10, h, 0, 0, "a");
        sim.schedule(10, h, 0, 0, "b");
        sim.scheduleAt(20, (k, a, o) -> {
            log.add(sim.now() + ":x");
            sim.schedule(0, h, 0, 0, "y"); // same time, after everything already queued at 20
        }, 0, 0, null);
        sim.scheduleAt(20, h, 0, 0, "z");
        assertThat(sim.run(Long.MAX_VALUE)).isTrue();
        assertThat(log).containsExactly("10:a", "10:b", "20:x", "20:z", "20:y", "30:c");
        assertThat(sim.eventsProcessed()).isEqualTo(6);
    }

    @Test
    void runStopsAtTheHorizonWithoutConsumingLaterEvents() {
        Simulation sim = new Simulation(1);
        List<Long> seen = new ArrayList<>();
        EventHandler h = (k, a, o) -> seen.add(sim.now());
        sim.scheduleAt(100, h, 0, 0, null);
        sim.scheduleAt(200, h, 0, 0, null);
        assertThat(sim.run(150)).isFalse();
        assertThat(seen).containsExactly(100L);
        assertThat(sim.now()).isEqualTo(150);
        assertThat(sim.pendingEvents()).isEqualTo(1);
        assertThat(sim.run(Long.MAX_VALUE)).isTrue();
        assertThat(seen).containsExactly(100L, 200L);
    }

    @Test
    void refusesEventsInThePast() {
        Simulation sim = new Simulation(1);
        sim.scheduleAt(100, (k, a, o) -> { }, 0, 0, null);
        sim.run(Long.MAX_VALUE);
        assertThatThrownBy(() -> sim.schedule(-1, (k, a, o) -> { }, 0, 0, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sim.scheduleAt(99, (k, a, o) -> { }, 0, 0, null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void stopReturnsAfterTheCurrentEvent() {
        Simulation sim = new Simulation(1);
        List<Long> seen = new ArrayList<>();
        sim.scheduleAt(1, (k, a, o) -> {
            seen.add(sim.now());
            sim.stop();
        }, 0, 0, null);
        sim.scheduleAt(1, (k, a, o) -> seen.add(-sim.now()), 0, 0, null);
        assertThat(sim.run(Long.MAX_VALUE)).isFalse();
        assertThat(seen).containsExactly(1L);
    }

    /** A hot handler (its own event record, as ports are) that logs its events and the prefetches it is asked for. */
    private static final class Recorder extends HotEventHandler {
        final Simulation sim;
        final List<String> log;

        Recorder(Simulation sim, List<String> log) {
            super(7);
            this.sim = sim;
            this.log = log;
        }

        @Override
        public void onEvent(int kind, long arg, Object obj) {
            log.add("run " + sim.now() + ":" + kind);
        }

        @Override
        public void prefetch(int kind) {
            log.add("prefetch " + kind);
        }
    }

    private static List<String> runWithLookahead(boolean on) {
        Simulation sim = new Simulation(1);
        List<String> log = new ArrayList<>();
        sim.setLookahead(on);
        Recorder a = new Recorder(sim, log);
        EventHandler plain = (k, arg, o) -> log.add("run " + sim.now() + ":plain");
        sim.scheduleOwned(a, 10);          // kind 7, its own record
        sim.scheduleAt(20, a, 3, 0, null); // kind 3, a pooled record
        sim.scheduleAt(30, plain, 0, 0, null);
        sim.scheduleAt(40, a, 5, 0, null);
        assertThat(sim.run(Long.MAX_VALUE)).isTrue();
        assertThat(sim.eventsProcessed()).isEqualTo(4);
        return log;
    }

    /**
     * With lookahead the loop asks the next event's hot handler to prefetch before the current
     * event runs (never for a plain handler, nor when nothing follows); without it never. The
     * events themselves run the same either way.
     */
    @Test
    void lookaheadPrefetchesTheNextHotEventBeforeTheCurrentOneRuns() {
        assertThat(runWithLookahead(true)).containsExactly(
                "prefetch 3", "run 10:7", "run 20:3", "prefetch 5", "run 30:plain", "run 40:5");
        assertThat(runWithLookahead(false)).containsExactly("run 10:7", "run 20:3", "run 30:plain", "run 40:5");
    }

    /** The loop counts events in a local: the count must be right however run() returns (horizon, stop, empty). */
    @Test
    void eventsProcessedIsExactAfterEveryWayRunReturns() {
        Simulation sim = new Simulation(1);
        EventHandler h = (k, a, o) -> { };
        for (int t = 1; t <= 5; t++) sim.scheduleAt(t * 100L, h, 0, 0, null);
        sim.scheduleAt(250, (k, a, o) -> sim.stop(), 0, 0, null);
        assertThat(sim.run(150)).isFalse();            // horizon
        assertThat(sim.eventsProcessed()).isEqualTo(1);
        assertThat(sim.run(Long.MAX_VALUE)).isFalse(); // stop() at 250
        assertThat(sim.eventsProcessed()).isEqualTo(3);
        assertThat(sim.run(Long.MAX_VALUE)).isTrue();  // ran empty
        assertThat(sim.eventsProcessed()).isEqualTo(6);
    }
}
