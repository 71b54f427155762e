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
}
