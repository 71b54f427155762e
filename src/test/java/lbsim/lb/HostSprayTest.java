package lbsim.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import lbsim.BadInputException;
import lbsim.experiment.Scenarios;
import lbsim.net.Packet;
import org.junit.jupiter.api.Test;

/** spray-host's fixed entropy set ({@code entropies: N}): uet-htsim's oblivious cycle (UecMpOblivious). */
class HostSprayTest {
    /** 2 leaves x 8 spines, 2 hosts per leaf, each sending 400 KB (about 100 packets) to the other leaf. */
    private static final String FABRIC = """
            topology: {kind: leaf-spine, leaves: 2, spines: 8, hosts_per_leaf: 2, link_gbps: 100, link_latency_ns: 1000}
            workload: {kind: flows, flows: [{src: 0, dst: 2, size_bytes: 400000}, {src: 1, dst: 3, size_bytes: 400000},
                       {src: 2, dst: 0, size_bytes: 400000}, {src: 3, dst: 1, size_bytes: 400000}]}
            nic: {profile: multipath}
            """;

    @Test
    void everyRoundOfNPacketsUsesEachOfTheQpsNEntropiesOnceInAnXorOrder() {
        qt().forAll(integers().between(0, 8), integers().between(1, 1000)).checkAssert((log2, seed) -> {
            int n = 1 << log2;
            HostSpray spray = new HostSpray(new SplittableRandom(seed), n);
            HostSpray.Cycle c = spray.newCycle();
            Set<Integer> set = null;
            for (int round = 0; round < 5; round++) {
                List<Integer> ports = new ArrayList<>();
                for (int i = 0; i < n; i++) ports.add(spray.next(c));
                Set<Integer> distinct = new HashSet<>(ports);
                assertThat(distinct).hasSize(n);
                if (set == null) set = distinct;
                assertThat(distinct).isEqualTo(set); // the same set every round
                int low = ports.get(0) - Ecmp.SPORT_MIN;
                int base = low & ~(n - 1);
                int xor = low & (n - 1);
                for (int i = 0; i < n; i++) assertThat(ports.get(i)).isEqualTo(Ecmp.SPORT_MIN + (base | (i ^ xor)));
                assertThat(ports).allSatisfy(p -> assertThat(p).isBetween(Ecmp.SPORT_MIN, Ecmp.SPORT_MIN + Ecmp.SPORT_RANGE - 1));
            }
        });
    }

    @Test
    void theXorOrderIsRedrawnBetweenRounds() {
        HostSpray spray = new HostSpray(new SplittableRandom(5), 64);
        HostSpray.Cycle c = spray.newCycle();
        Set<Integer> firsts = new HashSet<>();
        for (int round = 0; round < 50; round++) {
            firsts.add(spray.next(c));
            for (int i = 1; i < 64; i++) spray.next(c);
        }
        assertThat(firsts.size()).isGreaterThan(20); // one fixed order would start every round on one port
    }

    @Test
    void inARunEachQpSendsOnExactlyItsNEntropies() {
        for (int n : new int[] {1, 4, 16}) {
            Map<Integer, Set<Integer>> portsByFlow = new HashMap<>();
            Observed.run(FABRIC, d -> {
                if (d.p().kind == Packet.DATA) portsByFlow.computeIfAbsent(d.p().src, k -> new HashSet<>()).add(d.p().sport);
            }, "load_balancer={scheme: spray-host, entropies: " + n + "}");
            assertThat(portsByFlow).hasSize(4);
            assertThat(portsByFlow.values()).allSatisfy(s -> assertThat(s).hasSize(n));
        }
    }

    @Test
    void theDefaultStillDrawsAFreshPortPerPacket() {
        Map<Integer, Set<Integer>> portsByFlow = new HashMap<>();
        Observed.run(FABRIC, d -> {
            if (d.p().kind == Packet.DATA) portsByFlow.computeIfAbsent(d.p().src, k -> new HashSet<>()).add(d.p().sport);
        }, "load_balancer.scheme=spray-host");
        assertThat(portsByFlow.values()).allSatisfy(s -> assertThat(s.size()).isGreaterThan(60));
    }

    @Test
    void entropiesThatAreNotAPowerOfTwoAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> Scenarios.parse(FABRIC, "load_balancer={scheme: spray-host, entropies: 100}"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("entropies").hasMessageContaining("power of two");
        assertThatThrownBy(() -> Scenarios.parse(FABRIC, "load_balancer={scheme: spray-host, entropies: 32768}"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("entropies");
    }
}
