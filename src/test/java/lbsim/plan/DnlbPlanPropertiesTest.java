package lbsim.plan;

import lbsim.lb.DnlbPorts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Property tests of CTCCL paper 003 §3.2-§3.3 Eqs. 1-4 for every uplink count, powers of two or not. */
class DnlbPlanPropertiesTest {

    @Test
    void rangesTileTheRoceSourcePortsExactly() {
        // CTCCL §3.2 Eq. 2: nlink_up ranges covering [0xC000, 0xFFFF], no gaps, no overlaps
        qt().withFixedSeed(20250608L).withExamples(400).forAll(integers().between(1, DnlbPorts.MAX_UPLINKS))
                .checkAssert(u -> {
                    List<PortRange> ranges = DnlbPlan.ranges(u);
                    assertThat(ranges).hasSize(u);
                    assertThat(ranges.get(0).first()).isEqualTo(0xC000);
                    assertThat(ranges.get(u - 1).last()).isEqualTo(0xFFFF);
                    int min = Integer.MAX_VALUE;
                    int max = 0;
                    for (int n = 0; n < u; n++) {
                        PortRange r = ranges.get(n);
                        assertThat(r.uplink()).isEqualTo(n);
                        assertThat(r.size()).isPositive();
                        if (n > 0) {
                            assertThat(r.first()).isEqualTo(ranges.get(n - 1).last() + 1);
                        }
                        min = Math.min(min, r.size());
                        max = Math.max(max, r.size());
                        // uplinkOf inverts the partition at both ends of every range
                        assertThat(DnlbPorts.uplinkOf(r.first(), u)).isEqualTo(n);
                        assertThat(DnlbPorts.uplinkOf(r.last(), u)).isEqualTo(n);
                    }
                    assertThat(max - min).isLessThanOrEqualTo(1);
                    assertThat(ranges.stream().mapToInt(PortRange::size).sum()).isEqualTo(DnlbPorts.PORT_SPAN);
                });
    }

    @Test
    void uplinkOfAgreesWithTheRangesOnEveryPort() {
        qt().withFixedSeed(7L).withExamples(60).forAll(integers().between(1, 1000)).checkAssert(u -> {
            List<PortRange> ranges = DnlbPlan.ranges(u);
            for (int port = DnlbPorts.PORT_MIN; port <= DnlbPorts.PORT_MAX; port++) {
                int n = DnlbPorts.uplinkOf(port, u);
                assertThat(ranges.get(n).contains(port)).as("port %d, %d uplinks", port, u).isTrue();
            }
        });
    }

    @Test
    void everySourcePortLiesInItsIntendedUplinksRange() {
        // CTCCL §3.2 Eq. 3 lands QP q of NIC index at uplink (index*nqp + q) mod nlink_up
        qt().withFixedSeed(11L).withExamples(3000)
                .forAll(integers().between(1, DnlbPorts.MAX_UPLINKS), longs().between(0, 0xFFFF_FFFFL),
                        integers().between(1, 4096), integers().between(0, 4095))
                .checkAssert((u, index, nqp, qRaw) -> {
                    int q = qRaw % nqp;
                    int sport = DnlbPorts.sourcePort(index, q, nqp, u);
                    int intended = DnlbPorts.intendedUplink(index, q, nqp, u);
                    assertThat(intended).isEqualTo((int) Math.floorMod(index * nqp + q, (long) u));
                    assertThat(sport).isBetween(DnlbPorts.PORT_MIN, DnlbPorts.PORT_MAX);
                    assertThat(DnlbPlan.range(intended, u).contains(sport)).isTrue();
                    assertThat(DnlbPorts.uplinkOf(sport, u)).isEqualTo(intended);
                });
    }

    @Test
    void powersOfTwoReproduceThePapersFormulaVerbatim() {
        // CTCCL §3.2 Eqs. 1 and 3 with integer step: 0xC000 + ((index*nqp + q) * step) % (0xFFFF - 0xC000 + 1)
        qt().withFixedSeed(5L).withExamples(2000)
                .forAll(integers().between(0, 14), longs().between(0, 1L << 24), integers().between(1, 256),
                        integers().between(0, 255))
                .checkAssert((log2, index, nqp, qRaw) -> {
                    int q = qRaw % nqp;
                    int u = 1 << log2;
                    long step = (0xFFFF - 0xC000 + 1) / u;
                    long paper = 0xC000 + ((index * nqp + q) * step) % (0xFFFF - 0xC000 + 1);
                    assertThat(DnlbPorts.sourcePort(index, q, nqp, u)).isEqualTo((int) paper);
                    assertThat(DnlbPorts.rangeFirst(0, u) + step * (long) DnlbPorts.uplinkOf((int) paper, u))
                            .isEqualTo(paper);
                });
    }

    @Test
    void eq4ImpliesEveryUplinkGetsAQpOnEveryLeaf() {
        // CTCCL §3.3 Eq. 4: nNIC_leaf * nqp_per_conn >= nlink_up; consecutive NIC indices then reach every uplink,
        // and the QP counts of a leaf's uplinks differ by at most one
        qt().withFixedSeed(3L).withExamples(1500)
                .forAll(integers().between(1, 96), integers().between(1, 16), integers().between(1, 16),
                        integers().between(1, 3))
                .checkAssert((u, nics, qps, leaves) -> {
                    DnlbPlan plan = DnlbPlan.compute(new DnlbInput(u, nics, qps, leaves, null, List.of(), List.of()));
                    boolean eq4 = DnlbPorts.eq4Satisfied(nics, qps, u);
                    assertThat(eq4).isEqualTo(nics * qps >= u);
                    for (DnlbPlan.Leaf leaf : plan.leaves()) {
                        List<Integer> counts = leaf.qpsPerUplink();
                        assertThat(counts.stream().mapToInt(Integer::intValue).sum()).isEqualTo(nics * qps);
                        if (eq4) {
                            assertThat(counts).allSatisfy(c -> assertThat(c).isPositive());
                            int max = counts.stream().mapToInt(Integer::intValue).max().orElseThrow();
                            int min = counts.stream().mapToInt(Integer::intValue).min().orElseThrow();
                            assertThat(max - min).isLessThanOrEqualTo(1);
                        } else {
                            // pigeonhole: fewer QPs than uplinks leaves some uplink idle
                            assertThat(counts).contains(0);
                        }
                    }
                    // warned: Eq. 4 violated, or QPs per uplink uneven (nics * qps not a multiple of u)
                    assertThat(plan.warnings().isEmpty()).isEqualTo(eq4 && (long) nics * qps % u == 0);
                });
    }

    @Test
    void eq4WithArbitraryConsecutiveIndicesCoversEveryUplink() {
        // §3.3: indices need only be a continuously increasing sequence (e.g. host parts of sequential IPs)
        qt().withFixedSeed(13L).withExamples(1500)
                .forAll(integers().between(1, 512), integers().between(1, 64), integers().between(1, 64),
                        longs().between(0, 1L << 32))
                .checkAssert((uRaw, nics, qps, base) -> {
                    int u = Math.min(uRaw, nics * qps); // Eq. 4 holds; often with equality
                    boolean[] hit = new boolean[u];
                    for (int j = 0; j < nics; j++) {
                        for (int q = 0; q < qps; q++) {
                            hit[DnlbPorts.uplinkOf(DnlbPorts.sourcePort(base + j, q, qps, u), u)] = true;
                        }
                    }
                    for (int n = 0; n < u; n++) {
                        assertThat(hit[n]).as("uplink %d of %d", n, u).isTrue();
                    }
                });
    }
}
