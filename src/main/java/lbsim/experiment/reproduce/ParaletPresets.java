package lbsim.experiment.reproduce;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Presets of Cao, Cheng, Zhao, Xiong, "Network Load Balancing with Parallel Flowlets for AI Training Clusters". */
final class ParaletPresets {
    private ParaletPresets() {}

    static List<Preset> all() {
        return List.of(paraletFig4(), paraletFig5());
    }

    static final String PAPER = "Cao, Cheng, Zhao, Xiong: Network Load Balancing with Parallel Flowlets for AI Training Clusters (ParaLet)";

    /** ParaLet §6: Clos 1:1, 100 Gbps, 1 us links, 9 MB buffer per switch (9 MiB, as the ns-3 codes' BUFFER_SIZE in MB). */
    private static String fabric(int k) {
        return "{kind: fat-tree, k: " + k + ", link_gbps: 100, link_latency_ns: 1000, switch_buffer_bytes: 9437184}";
    }

    /**
     * The base: DCQCN with PFC and Go-Back-N (the RoCE setting of the ns-3 codes §6 builds on), a
     * snapshot of the collective's communication pairs on randomly placed ranks (§6 "traffic snapshots").
     * RoCE NICs (nic profile roce): an in-order receiver that discards packets beyond a gap and NACKs, so
     * DRILL's per-packet reordering costs go-back-N retransmissions, which is what the flowlet schemes avoid.
     * PFC keeps the fabric lossless, so the QP timer (the profile's 4.3 s local ACK timeout) should not fire;
     * retry_count 0 all the same, since the simulator's retry limit is not stated.
     */
    private static String base(String name, long sizeBytes) {
        return "name: " + name + "\nbase:\n  name: " + name + "\n  topology: " + fabric(8) + "\n" + """
                  transport: {cc: dcqcn, loss_recovery: go-back-n, pfc: true}
                  nic: {profile: roce, retry_count: 0}
                  load_balancer: {scheme: ecmp}
                  workload: {kind: collective, op: all-reduce, algorithm: ring, placement: random, snapshot: true, size_bytes: %d}
                  metrics: {throughput_interval_us: 10}
                """.formatted(sizeBytes);
    }

    /** §6: 128 accelerators (SS) and 1024 (LS): read as the k = 8 and k = 16 fat-trees (8^3/4 = 128, 16^3/4 = 1024). */
    private static String topologies(boolean large) {
        return "  topology: {SS: " + fabric(8) + (large ? ", LS: " + fabric(16) : "") + "}\n";
    }

    private static final String WORKLOADS = "  workload.algorithm: {Ring: ring, DBT: double-binary-tree}\n";

    /** §6 comparison objects; LetFlow at each of the three gaps §6 tries. */
    static final List<String> LETFLOW = List.of("letflow-50", "letflow-100", "letflow-200");
    static final int[] M = {1, 2, 4, 8, 16, 32};

    private static String schemes() {
        StringBuilder sb = new StringBuilder("  load_balancer:\n");
        sb.append("    ecmp: {scheme: ecmp}\n");
        // §6: "choose a new output port with the smallest queue among 2 random samples and the current port"
        sb.append("    drill: {scheme: drill, d: 2}\n");
        for (String l : LETFLOW) sb.append("    ").append(l).append(": {scheme: letflow, gap_us: ").append(l.substring(8)).append("}\n");
        // ConWeave's ns-3 run.py values for 3-tier fat-trees, lossless (docs/conweave.md)
        sb.append("    conweave: {scheme: conweave, inactive_us: 1000, reorder_extra_us: 64, reorder_default_us: 600}\n");
        for (int m : M) sb.append("    paralet-").append(m).append(": {scheme: paralet, m: ").append(m).append("}\n");
        return sb.toString();
    }

    // sizes per communication pair: not stated in the paper
    static final long PAPER_BYTES = 16L << 20;
    static final long QUICK_BYTES = 2L << 20;

    private static Map<String, String> scales(String id, int paperSeeds, int quickSeeds) {
        String paper = base(id + "-paper", PAPER_BYTES) + "grid:\n" + topologies(true) + WORKLOADS + schemes() + "seeds: " + paperSeeds + "\n";
        String quick = base(id + "-quick", QUICK_BYTES) + "grid:\n" + topologies(false) + WORKLOADS + schemes() + "seeds: " + quickSeeds + "\n";
        return Map.of("paper", paper, "quick", quick);
    }

    private static Map<String, String> sel(String topo, String wl, String lb) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("topology", topo);
        m.put("workload.algorithm", wl);
        m.put("load_balancer", lb);
        return m;
    }

    static final String MTT = "throughput.max_gbps";
    /** The snapshot's completion = its largest flow completion time (all flows start at 0). */
    static final String FCT = "cct_ns";

    private static final List<String> DEVIATIONS = List.of(
            "Workload: §6 uses 'traffic snapshots of the communication pair' of ring and double-binary-tree all-reduce without "
                    + "sizes or placement. lbsim runs workload.snapshot: one flow of size_bytes per distinct (src, dst) pair of "
                    + "the collective (ring: r -> r+1; DBT: every edge of both NCCL trees, both directions), all at time 0, on "
                    + "randomly placed ranks (a new placement per seed; contiguous ranks would keep most ring pairs inside a ToR). "
                    + "Sizes per pair are ours: 16 MiB (paper scale), 2 MiB (quick).",
            "Topology: 'Clos 1:1' with 128 and 1024 accelerators is read as the k = 8 and k = 16 fat-trees (the only 1:1 "
                    + "3-tier Clos sizes that give exactly 128 and 1024 hosts); the paper does not state tiers or radix.",
            "Transport: not stated in §6; we use DCQCN + PFC + Go-Back-N (RoCE, as in the HPCC / ConWeave ns-3 codes). "
                    + "'9MB' is taken as 9 MiB shared per switch.",
            "NIC: nic profile roce (RoCE RNICs): the receiver discards every packet beyond a gap and NACKs, the sender goes "
                    + "back N, so DRILL's per-packet reordering costs retransmissions, as on a plain Go-Back-N RNIC (before "
                    + "NIC profiles lbsim kept DRILL's out-of-order packets). The QP timer is the profile's local ACK timeout "
                    + "(4.3 s), which PFC's lossless fabric should never reach; nic.retry_count 0 (a QP never fails), as the "
                    + "paper does not state its simulator's retry limit.",
            "FCT: §6 does not say which FCT statistic Fig. 5 shows; the FCT cells use the snapshot's completion (its largest "
                    + "FCT, cct_ns). Mean FCT (flows.fct_ns.mean) is in results.csv. MTT = max over 10 us intervals of the "
                    + "bytes sent by all host-facing switch ports (throughput.max_gbps); throughput.csv per run is the TT curve.",
            "LetFlow: §6 presents the best of gaps 50, 100 and 200 us. All three run; a LetFlow cell is computed against each "
                    + "and reports the strongest one (the smallest ratio), named in the note.",
            "Stated ranges (e.g. MTT 1.4-1.6 x vs ECMP) cover the four cases (Ring/DBT x SS/LS) without saying which is "
                    + "which: every case's cell carries the midpoint and the note gives the range.",
            "ParaLet's per-flowlet congestion control state restarts with each flowlet (docs/paralet.md); ConWeave's "
                    + "reroute picks only the ToR uplink in a 3-tier fabric (docs/conweave.md).");

    /** §6 Fig. 5 text: ParaLet (m = 32) against each baseline, MTT ratio and FCT reduction, per case. */
    static Preset paraletFig5() {
        List<Cell> cells = new ArrayList<>();
        String[][] cases = {{"SS", "Ring"}, {"SS", "DBT"}, {"LS", "Ring"}, {"LS", "DBT"}};
        // baseline label(s), name, MTT paper value, its text, FCT paper value, its text
        Object[][] vs = {
                {List.of("ecmp"), "ECMP", 1.5, "1.4-1.6", 3.0, "2.6-3.4"},
                {List.of("drill"), "DRILL", 1.1, "about 1.1", 1.8, "about 1.8"},
                {List.of("conweave"), "ConWeave", 1.4, "1.2-1.6", 1.55, "1.5-1.6"},
                {LETFLOW, "LetFlow (best gap)", 1.5, "1.4-1.6", 2.7, "2.6-2.8"}};
        for (String[] c : cases) {
            for (Object[] v : vs) {
                @SuppressWarnings("unchecked")
                List<String> labels = (List<String>) v[0];
                List<Map<String, String>> bases = new ArrayList<>();
                for (String l : labels) bases.add(sel(c[0], c[1], l));
                String what = c[1] + " " + c[0] + ": ParaLet-32 vs " + v[1];
                String where = "§6 text on Fig. 5";
                cells.add(Cell.ratio(what + ", MTT ratio", MTT, sel(c[0], c[1], "paralet-32"), bases, (double) v[2],
                        where + ": MTT " + v[3] + " times" + (((String) v[3]).contains("-") ? " over the four cases (midpoint)" : "")));
                cells.add(Cell.reduction(what + ", FCT reduction", FCT, sel(c[0], c[1], "paralet-32"), bases, (double) v[4],
                        where + ": FCT reduced " + v[5] + " times" + (((String) v[5]).contains("-") ? " over the four cases (midpoint)" : "")));
            }
        }
        // the stated ranges span the four cases without naming them: ours against the range's end, and against Eq. 1
        McClurePresets.cause(cells, "DBT SS: ParaLet-32 vs ConWeave, MTT ratio", Cell.Cause.Kind.PAPER, "§6 states 1.2-1.6 times "
                + "over the four cases without saying which case has which value (the cell takes the midpoint): ours, 1.18 "
                + "(sd 0.002), is at the range's lower end");
        double ss = lbsim.plan.ParaletPlan.predictedSlowdown(nodes("SS"), 1) / lbsim.plan.ParaletPlan.predictedSlowdown(nodes("SS"), 32);
        double ls = lbsim.plan.ParaletPlan.predictedSlowdown(nodes("LS"), 1) / lbsim.plan.ParaletPlan.predictedSlowdown(nodes("LS"), 32);
        McClurePresets.cause(cells, "DBT SS: ParaLet-32 vs ECMP, FCT reduction", Cell.Cause.Kind.PAPER, String.format(
                java.util.Locale.ROOT, "the paper's own Eq. 1 (§4.1) gives ECMP's completion over ParaLet-32's as (1 + z) / (1 + z / "
                        + "sqrt(m)) = %.2f at N = 128 (%.2f at N = 1024), below the 2.6-3.4 times §6 states for the four cases; ours "
                        + "on DBT SS is 2.35 (sd 0.04)", ss, ls));
        for (String[] c : cases) cells.addAll(theoryAndMCells(c[0], c[1]));
        for (String topo : List.of("SS", "LS")) {
            cells.add(Cell.value("DBT " + topo + ": ParaLet-32 max QPs per NIC", sel(topo, "DBT", "paralet-32"), 32,
                    "§6 'ParaLet requires only 32 QPs to achieve good simulation performance' (QPs decoupled from connections, "
                            + "§5.3: DBT is where a host has the most peers) [field max_qps_per_nic]").on("max_qps_per_nic"));
        }
        return new Preset("paralet-fig5", PAPER, "Fig. 5",
                "Maximum total throughput (MTT) and FCT of ring and double-binary-tree all-reduce traffic snapshots on 1:1 "
                        + "Clos fabrics of 128 (SS) and 1024 (LS) accelerators at 100 Gbps, 1 us links, 9 MB switch buffers, under "
                        + "ECMP, DRILL, LetFlow (gaps 50/100/200 us), ConWeave and ParaLet m = 1..32, RoCE NICs (go-back-N, no retry "
                        + "limit). Cells: ParaLet (m = 32) "
                        + "against each baseline as MTT ratio (ours / baseline) and FCT reduction (baseline / ours). Paper scale: "
                        + "k = 8 and k = 16 fat-trees, 16 MiB per pair, 3 seeds (144 runs). Quick scale: SS only, 2 MiB per pair, "
                        + "2 seeds (48 runs).",
                MTT, "MTT (Gb/s); cells are ratios", scales("paralet-fig5", 3, 2), cells, DEVIATIONS);
    }

    /** Accelerators per topology label (§6: 128 and 1024), the N of Eq. 1. */
    private static long nodes(String topo) {
        return topo.equals("SS") ? 128 : 1024;
    }

    /**
     * §4.1's predictions checked on one Fig. 5 case, and §6's "The performance of the ParaLet improves with an increasing
     * value of m, although the rate of improvement gradually diminishes".
     */
    private static List<Cell> theoryAndMCells(String topo, String wl) {
        String what = wl + " " + topo + ": ";
        long n = nodes(topo);
        double eq1 = lbsim.plan.ParaletPlan.predictedSlowdown(n, 32);
        double ecmpEq1 = lbsim.plan.ParaletPlan.predictedSlowdown(n, 1);
        String eq1Text = String.format(java.util.Locale.ROOT, "%.2f", eq1);
        return List.of(
                Cell.value(what + "ParaLet-32 slowdown (Eq. 1)", sel(topo, wl, "paralet-32"), eq1,
                        "§4.1 Eq. 1 SlowDown = 1 + Phi^-1(1 - 1/N) / sqrt(m) at N = " + n + ", m = 32: " + eq1Text
                                + "; ours: the snapshot's completion over its ideal [field normalised]").on("normalised"),
                Cell.reduction(what + "ParaLet-32 vs ECMP, FCT reduction (sqrt(m), §4.1)", FCT, sel(topo, wl, "paralet-32"),
                        List.of(sel(topo, wl, "ecmp")), Math.sqrt(32), "§4.1 'Compared to ECMP, ParaLet is expected to speedup "
                                + "by sqrt(m) times' (m = 32: 5.66)")
                        .because(Cell.Cause.Kind.PAPER, String.format(java.util.Locale.ROOT, "sqrt(m) is the ratio of Eq. 1's "
                                + "excess slowdowns (z against z / sqrt(m)), not of the slowdowns: Eq. 1 itself gives (1 + z) / "
                                + "(1 + z / sqrt(m)) = %.2f / %.2f = %.2f at N = %d, and §6 states 2.6-3.4 times for Fig. 5",
                                ecmpEq1, eq1, ecmpEq1 / eq1, n)),
                Cell.reduction(what + "ParaLet-8 vs ParaLet-1, FCT reduction", FCT, sel(topo, wl, "paralet-8"),
                        List.of(sel(topo, wl, "paralet-1")), Double.NaN, "§6 'The performance of the ParaLet improves with an "
                                + "increasing value of m' (no number)"),
                Cell.reduction(what + "ParaLet-32 vs ParaLet-8, FCT reduction", FCT, sel(topo, wl, "paralet-32"),
                        List.of(sel(topo, wl, "paralet-8")), Double.NaN, "§6, as above; 'the rate of improvement gradually "
                                + "diminishes' compares this cell with the one before (no cell)"));
    }

    /** §6 Fig. 4: total throughput over time; the paper states no numbers for it (the curves are in runs/<key>/throughput.csv). */
    static Preset paraletFig4() {
        return new Preset("paralet-fig4", PAPER, "Fig. 4",
                "Total throughput (TT) over time, every 10 us, for the Fig. 5 runs (one seed): ring and double-binary-tree "
                        + "snapshots on the 128 (SS) and 1024 (LS) accelerator fabrics under every scheme, RoCE NICs (go-back-N, no "
                        + "retry limit). The curves are "
                        + "runs/<run key>/throughput.csv (time_us, gbps); results.csv has MTT and mean TT per run. The paper "
                        + "states no numbers for Fig. 4, only orderings of the curves: ECMP worst in every case, ConWeave above "
                        + "DRILL under DBT, ConWeave between DRILL and ECMP under Ring; the cells check them on the mean TT "
                        + "(claims without a number). Quick scale: SS, 2 MiB per pair.",
                TT, "mean TT (Gb/s)", scales("paralet-fig4", 1, 1), fig4CellsWithCauses(), DEVIATIONS)
                .withFigures(PaperFigure.throughput("Fig. 4: total throughput (TT) over time", "load_balancer"));
    }

    static final String TT = "throughput.mean_gbps";

    /**
     * §6's own account makes LetFlow ECMP's equal under RDMA; evidence from the stored quick runs (seed 1): no LetFlow run has
     * an out-of-order arrival, and on the ring all three gaps give the same run.
     */
    private static final String LETFLOW_IS_ECMP = "§6 says LetFlow 'struggles to identify the time gaps under RDMA' and states "
            + "the same MTT gain of ParaLet over ECMP and over LetFlow (1.4-1.6 times), so LetFlow is ECMP's equal and 'ECMP "
            + "performs the worst' cannot hold strictly against it; ours: LetFlow's flowlets never move a flow (no out-of-order "
            + "arrival in any LetFlow run), the weakest other is LetFlow at ";

    private static List<Cell> fig4CellsWithCauses() {
        List<Cell> cells = new ArrayList<>(fig4Cells());
        McClurePresets.cause(cells, "Ring SS: ECMP lowest mean TT (weakest other / ECMP)", Cell.Cause.Kind.PAPER, LETFLOW_IS_ECMP
                + "0.98 of ECMP's mean TT (the same at all three gaps), and DRILL, ConWeave and ParaLet-32 are at 5.4, 1.6 and 5.0 "
                + "times ECMP's");
        McClurePresets.cause(cells, "DBT SS: ECMP lowest mean TT (weakest other / ECMP)", Cell.Cause.Kind.PAPER, LETFLOW_IS_ECMP
                + "0.95-0.96 of ECMP's mean TT, and DRILL, ConWeave and ParaLet-32 are at 2.3, 1.6 and 2.3 times ECMP's");
        return cells;
    }

    /** §6's text on Fig. 4, claims without numbers, on the mean total throughput of each run. */
    private static List<Cell> fig4Cells() {
        List<Cell> cells = new ArrayList<>();
        for (String topo : List.of("SS", "LS")) {
            for (String wl : List.of("Ring", "DBT")) {
                String what = wl + " " + topo + ": ";
                List<Map<String, String>> others = new ArrayList<>();
                for (String l : List.of("drill", "conweave", "paralet-32", "letflow-50", "letflow-100", "letflow-200")) {
                    others.add(sel(topo, wl, l));
                }
                // baseline / ours with ECMP as ours: every other scheme's mean TT over ECMP's; the smallest is reported
                cells.add(Cell.reduction(what + "ECMP lowest mean TT (weakest other / ECMP)", TT, sel(topo, wl, "ecmp"), others,
                        Double.NaN, "§6 'ECMP performs the worst across different scenarios': the mean TT of the weakest of "
                                + "DRILL, ConWeave, ParaLet-32 and every LetFlow gap over ECMP's (the paper plots only LetFlow's "
                                + "best gap, so this reading is the stricter one) [field " + TT + "]"));
                if (wl.equals("DBT")) {
                    cells.add(Cell.ratio(what + "ConWeave vs DRILL, mean TT ratio", TT, sel(topo, wl, "conweave"),
                            List.of(sel(topo, wl, "drill")), Double.NaN, "§6 'ConWeave outperforms DRILL in the DBT workload' "
                                    + "[field " + TT + "]"));
                } else {
                    cells.add(Cell.ratio(what + "DRILL vs ConWeave, mean TT ratio", TT, sel(topo, wl, "drill"),
                            List.of(sel(topo, wl, "conweave")), Double.NaN, "§6 'in the Ring workload ... its [ConWeave's] "
                                    + "performance falls between DRILL and ECMP' [field " + TT + "]"));
                    cells.add(Cell.ratio(what + "ConWeave vs ECMP, mean TT ratio", TT, sel(topo, wl, "conweave"),
                            List.of(sel(topo, wl, "ecmp")), Double.NaN, "§6, as above [field " + TT + "]"));
                }
            }
        }
        return cells;
    }
}
