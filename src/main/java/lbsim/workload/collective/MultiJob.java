package lbsim.workload.collective;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import lbsim.workload.FlowGraph;

/** Several jobs at once (e.g. CTCCL §4.2's two concurrent NCCL-tests tasks): split hosts, one group per job. */
public final class MultiJob {
    private MultiJob() {}

    /** Splits {@code hosts} into {@code jobs} consecutive blocks whose sizes differ by at most one. */
    public static int[][] splitBlocks(int[] hosts, int jobs) {
        check(hosts, jobs);
        int[][] out = new int[jobs][];
        int at = 0;
        for (int j = 0; j < jobs; j++) {
            int size = (int) ByteSplit.part(hosts.length, jobs, j);
            out[j] = Arrays.copyOfRange(hosts, at, at + size);
            at += size;
        }
        return out;
    }

    /** Deals {@code hosts} round robin: host i goes to job i mod jobs (jobs interleave across leaves). */
    public static int[][] splitInterleaved(int[] hosts, int jobs) {
        check(hosts, jobs);
        int[][] out = new int[jobs][];
        for (int j = 0; j < jobs; j++) out[j] = new int[(int) ByteSplit.part(hosts.length, jobs, j)];
        for (int i = 0; i < hosts.length; i++) out[i % jobs][i / jobs] = hosts[i];
        return out;
    }

    /** Every one of {@code jobs} jobs on all of {@code hosts} (jobs sharing servers and NICs, CTCCL §4.2). */
    public static int[][] sameHosts(int[] hosts, int jobs) {
        if (jobs < 1) throw new IllegalArgumentException("jobs must be >= 1");
        int[][] out = new int[jobs][];
        for (int j = 0; j < jobs; j++) out[j] = hosts.clone();
        return out;
    }

    /** Appends {@code template} once per job with that job's hosts and its own group; returns the group ids. */
    public static int[] append(FlowGraph g, CollectiveSpec template, int[][] jobHosts) {
        List<CollectiveSpec> specs = specs(template, jobHosts);
        int[] groups = new int[jobHosts.length];
        for (int j = 0; j < jobHosts.length; j++) groups[j] = Collectives.append(g, specs.get(j));
        return groups;
    }

    /**
     * The per-job copies of {@code template}: that job's hosts, the template's root as a rank of each
     * job (refused if a job has no such rank), label "job j: ...".
     */
    public static List<CollectiveSpec> specs(CollectiveSpec template, int[][] jobHosts) {
        List<CollectiveSpec> out = new ArrayList<>();
        for (int j = 0; j < jobHosts.length; j++) {
            String base = template.label().isEmpty()
                    ? template.op() + " " + template.algorithm() + " " + template.sizeBytes() + "B x" + jobHosts[j].length
                    : template.label();
            out.add(template.toBuilder().rankToHost(jobHosts[j]).label("job " + j + ": " + base).build());
        }
        return out;
    }

    private static void check(int[] hosts, int jobs) {
        if (jobs < 1) throw new IllegalArgumentException("jobs must be >= 1");
        if (hosts.length < 2 * jobs) throw new IllegalArgumentException(hosts.length + " hosts cannot give " + jobs + " jobs at least 2 ranks each");
    }
}
