package lbsim.workload.collective;

import java.util.ArrayList;
import java.util.List;

/**
 * Two-level collective: servers of g = ranksPerServer consecutive ranks joined by an
 * NVLink-like intra-server link of intraServerGBps per GPU, modelled as time (not fabric
 * flows), and an inter-server phase over the fabric run by innerAlgorithm among the ranks with
 * the same local index l (servers m = n/g; with rail-optimised placement these are rails).
 * The ACCL-style hybrid of ParaLet Table 1 (intra reduce-scatter + inter + intra all-gather):
 * <ul>
 *   <li>all-reduce: intra reduce-scatter (each local rank l gets the server's reduced share l,
 *       S/g bytes), inter all-reduce of share l among the m ranks with index l, intra all-gather;</li>
 *   <li>reduce-scatter: intra reduce-scatter, then inter reduce-scatter of share l;</li>
 *   <li>all-gather: inter all-gather of share l, then intra all-gather.</li>
 * </ul>
 * Intra times are ring times on NVLink: T = (g-1)/g x S / intraServerGBps, plus the reduction of
 * (g-1)/g x S at reduceGBps for the reduce-scatter. They are pipelined with the inter phase:
 * with K pieces per inter instance, piece k starts (k+1)/K x T_rs after the collective's start
 * and the trailing intra all-gather of the last piece, T_ag / K, is the collective's tail.
 */
final class HierarchicalAlgorithm implements CollectiveAlgorithm {
    private final int perServer;
    private final double intraGBps;
    private final Algorithm inner;

    HierarchicalAlgorithm(CollectiveSpec spec) {
        this.perServer = spec.ranksPerServer();
        this.intraGBps = spec.intraServerGBps();
        this.inner = Algorithm.of(spec.innerAlgorithm());
    }

    @Override
    public void validate(CollectiveContext ctx) {
        int n = ctx.n();
        if (inner == Algorithm.HIERARCHICAL) throw new IllegalArgumentException("hierarchical cannot nest itself as innerAlgorithm");
        Collectives.checkedAlgorithm(ctx.op(), inner.scenarioName());
        if (n % perServer != 0) {
            throw new IllegalArgumentException("hierarchical needs the rank count (" + n + ") to be a multiple of ranksPerServer (" + perServer + ")");
        }
        if (n / perServer < 2) throw new IllegalArgumentException("hierarchical needs at least 2 servers, got " + n / perServer);
        innerImpl().validate(ctx.forSubgroup(new int[n / perServer], new int[n / perServer], Math.max(1, ctx.sizeBytes() / perServer), ctx.start(), 0));
    }

    private CollectiveAlgorithm innerImpl() {
        return Collectives.implementation(inner, null);
    }

    @Override
    public Completion emit(CollectiveContext ctx, FlowEmitter out) {
        int g = perServer;
        int servers = ctx.n() / g;
        double crossBytes = (double) ctx.sizeBytes() * (g - 1) / g;
        boolean intraRs = ctx.op() != Op.ALL_GATHER;
        boolean intraAg = ctx.op() != Op.REDUCE_SCATTER;
        long rsPs = intraRs ? Rates.psAtGBps(crossBytes, intraGBps) + Rates.psAtGBps(crossBytes, ctx.reduceGBps()) : 0;
        long agPs = intraAg ? Rates.psAtGBps(crossBytes, intraGBps) : 0;
        int[] maxSlices = {1};
        CollectiveContext.SliceStart staggered = (ch, k, slices) -> {
            maxSlices[0] = Math.max(maxSlices[0], slices);
            return ctx.start().at(ch, k, slices).plus(rsPs * (k + 1) / slices);
        };
        List<Completion> done = new ArrayList<>();
        for (int l = 0; l < g; l++) {
            int[] hosts = new int[servers], ranks = new int[servers];
            for (int s = 0; s < servers; s++) {
                ranks[s] = ctx.ranks()[s * g + l];
                hosts[s] = ctx.host(s * g + l);
            }
            long share = ByteSplit.part(ctx.sizeBytes(), g, l);
            if (share == 0) continue;
            done.add(innerImpl().emit(ctx.forSubgroup(hosts, ranks, share, staggered, 1 + l), out));
        }
        if (done.isEmpty()) return ctx.start().at(0, 0, 1).plus(rsPs + agPs);
        return Completion.join(done).plus(agPs / maxSlices[0]);
    }
}
