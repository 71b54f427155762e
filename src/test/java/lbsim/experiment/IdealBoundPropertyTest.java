package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import lbsim.metrics.CollectiveResult;
import lbsim.metrics.RunResult;
import lbsim.workload.collective.Collectives;
import org.junit.jupiter.api.Test;

/**
 * ideal_cct_ns is a lower bound whatever the collective: random small ones (every op and
 * algorithm, rank counts, sizes down to 1 byte, channels, random placement and root, one or two
 * jobs) on fabrics whose NICs and links run at random, unequal rates, under ECMP and spraying, never
 * finish below it, neither in the summary nor per collective.
 */
class IdealBoundPropertyTest {
    private static final int[] GBPS = {10, 25, 40, 100, 200, 400};
    private static final long[] SIZES = {1, 3, 100, 4096, 65_536, 250_000};

    @Test
    void randomCollectivesOnAsymmetricFabricsNeverBeatTheirBound() {
        SplittableRandom rnd = new SplittableRandom(20261126);
        List<String> pairs = new ArrayList<>();
        for (String op : Collectives.OPS) for (String alg : Collectives.algorithmsFor(op)) pairs.add(op + " " + alg);
        for (int run = 0; run < 6 * pairs.size(); run++) {
            String[] pair = pairs.get(run % pairs.size()).split(" ");
            String op = pair[0], alg = pair[1];
            boolean hier = alg.equals("hierarchical");
            boolean pow2Only = !op.equals("all-reduce") && (alg.equals("halving-doubling") || alg.equals("recursive-doubling"));
            int jobs = !hier && rnd.nextInt(4) == 0 ? 2 : 1;
            int ranks = hier ? 16 : pow2Only ? 1 << (1 + rnd.nextInt(jobs == 2 ? 3 : 4)) : 2 + rnd.nextInt(16 / jobs - 1);
            StringBuilder overrides = new StringBuilder();
            for (int h = 0; h < 16; h++) {
                if (rnd.nextInt(3) == 0) overrides.append("{links: \"h").append(h).append("-leaf").append(h / 8).append("\", gbps: ")
                        .append(GBPS[rnd.nextInt(GBPS.length)]).append("}, ");
            }
            overrides.append("{links: \"leaf0-spine").append(rnd.nextInt(2)).append("\", gbps: ").append(GBPS[rnd.nextInt(GBPS.length)]).append("}");
            String scheme = rnd.nextBoolean() ? "ecmp" : "spray-host";
            String yaml = "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 8, link_gbps: 100, link_latency_ns: 1000,"
                    + " link_overrides: [" + overrides + "]}\n"
                    + "load_balancer: {scheme: " + scheme + "}\n"
                    + "nic: {profile: multipath}\n" // the bound is about the fabric: a receiver that takes sprayed packets as they come"
                    + "workload: {kind: collective, op: " + op + ", algorithm: " + alg + ", size_bytes: " + SIZES[rnd.nextInt(SIZES.length)]
                    + ", ranks: " + ranks + ", jobs: " + jobs + ", placement: " + (hier ? "contiguous" : "random")
                    + ", channels: " + (rnd.nextBoolean() ? 1 : 1 + rnd.nextInt(8)) + ", root: " + rnd.nextInt(ranks)
                    + (rnd.nextInt(4) == 0 ? ", reduce_gbps: 50" : "") + "}\n";
            RunResult r = Scenarios.run(yaml, "seed=" + (1 + rnd.nextInt(1000)));
            Scenarios.assertConserved(r);
            assertThat(r.cctNs()).as(yaml).isGreaterThanOrEqualTo(r.idealCctNs());
            for (CollectiveResult c : r.collectives()) assertThat(c.cctNs()).as("%s\n%s", c.label(), yaml).isGreaterThanOrEqualTo(c.idealNs());
        }
    }
}
