package lbsim.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import org.junit.jupiter.api.Test;

/** Rank-to-host maps and the multi-job split. */
class PlacementTest {

    @Test
    void contiguousAndRandomPlacementsAreDistinctHostsInRange() {
        qt().forAll(integers().between(1, 300), integers().between(0, 300), longs().all()).checkAssert((ranks, extra, seed) -> {
            int hosts = ranks + extra;
            int[] a = Placement.random(ranks, hosts, new SplittableRandom(seed));
            assertThat(a).hasSize(ranks).doesNotHaveDuplicates();
            assertThat(Arrays.stream(a).allMatch(h -> h >= 0 && h < hosts)).isTrue();
            assertThat(Placement.random(ranks, hosts, new SplittableRandom(seed))).containsExactly(a);
            if (extra == 0) assertThat(a).containsExactlyInAnyOrder(Placement.contiguous(ranks));
        });
        assertThat(Placement.contiguous(4, 10)).containsExactly(10, 11, 12, 13);
    }

    @Test
    void randomPlacementActuallyShuffles() {
        int[] a = Placement.random(64, 64, new SplittableRandom(7));
        assertThat(a).isNotEqualTo(Placement.contiguous(64));
    }

    @Test
    void railOptimisedPutsNicIOfServerSOnRailLeafI() {
        qt().forAll(integers().between(1, 16), integers().between(1, 8), integers().between(1, 4)).checkAssert((servers, nics, mult) -> {
            int hostsPerLeaf = 16;
            int perServer = nics * mult;
            int[] map = Placement.railOptimised(servers, perServer, nics, hostsPerLeaf);
            for (int r = 0; r < map.length; r++) {
                int s = r / perServer;
                int nic = (r % perServer) % nics;
                assertThat(map[r]).isEqualTo(nic * hostsPerLeaf + s);
                assertThat(map[r] / hostsPerLeaf).as("rail leaf").isEqualTo(nic);
            }
            if (mult == 1) assertThat(map).doesNotHaveDuplicates();
        });
    }

    @Test
    void railSpansSeveralLeavesWhenServersExceedALeaf() {
        int[] map = Placement.railOptimised(20, 2, 2, 8);
        Set<Integer> leavesOfRail0 = new HashSet<>();
        Set<Integer> leavesOfRail1 = new HashSet<>();
        for (int r = 0; r < map.length; r++) (r % 2 == 0 ? leavesOfRail0 : leavesOfRail1).add(map[r] / 8);
        assertThat(leavesOfRail0).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(leavesOfRail1).containsExactlyInAnyOrder(3, 4, 5);
        assertThat(map).doesNotHaveDuplicates();
    }

    @Test
    void groupedRailAndSingleRailLayouts() {
        assertThat(Placement.railOptimisedGrouped(2, 8, 2, 16)).containsExactly(0, 0, 0, 0, 16, 16, 16, 16, 1, 1, 1, 1, 17, 17, 17, 17);
        assertThat(Placement.singleRail(3, 2, 2)).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(Placement.singleRail(2, 4, 1)).containsExactly(0, 0, 0, 0, 1, 1, 1, 1);
        assertThatThrownBy(() -> Placement.railOptimisedGrouped(2, 6, 4, 16)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void jobSplitsAreDisjointAndCoverAllHosts() {
        qt().forAll(integers().between(1, 8), integers().between(0, 100), longs().all()).checkAssert((jobs, extra, seed) -> {
            int[] hosts = Placement.random(2 * jobs + extra, 2 * jobs + extra + 5, new SplittableRandom(seed));
            for (int[][] split : new int[][][] {MultiJob.splitBlocks(hosts, jobs), MultiJob.splitInterleaved(hosts, jobs)}) {
                assertThat(split).hasNumberOfRows(jobs);
                Set<Integer> seen = new HashSet<>();
                for (int[] job : split) {
                    assertThat(job.length).isBetween(hosts.length / jobs, hosts.length / jobs + 1);
                    for (int h : job) assertThat(seen.add(h)).as("host %d in one job only", h).isTrue();
                }
                assertThat(seen).hasSize(hosts.length);
            }
        });
    }

    @Test
    void eachJobGetsItsOwnGroupAndStaysOnItsHosts() {
        FlowGraph g = new FlowGraph();
        int[][] jobs = MultiJob.splitInterleaved(Placement.contiguous(16), 2);
        int[] groups = MultiJob.append(g, CollectiveSpec.builder("all-reduce", "ring", 1 << 20, jobs[0]).build(), jobs);
        assertThat(groups).containsExactly(0, 1);
        assertThat(g.groups()).allSatisfy(name -> assertThat(name).startsWith("job "));
        for (FlowSpec f : g.flows()) {
            int[] mine = jobs[f.group()];
            assertThat(mine).contains(f.src(), f.dst());
        }
        long[] sent = g.bytesSentPerHost(16);
        for (int h = 0; h < 16; h++) assertThat(sent[h]).isEqualTo(2L * 7 * (1 << 20) / 8);
    }
}
