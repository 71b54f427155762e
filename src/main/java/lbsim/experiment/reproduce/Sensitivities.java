package lbsim.experiment.reproduce;

import java.util.List;
import java.util.Map;

/**
 * Per preset, the unstated settings its claims are checked across ({@link Sensitivity}); the values and why
 * are in docs/experiments.md, "Unstated settings". Kept apart from the presets so that adding a setting does
 * not change a preset's fingerprint (its main results stay valid).
 */
public final class Sensitivities {
    private Sensitivities() {}

    // ECN thresholds: Ethereal §4.1 names DCTCP + PFC but no marking threshold; lbsim's default is DCTCP's own
    // guideline (K = C x RTT / 7), the range's other end the HPCC ns-3 DCTCP setting (30 KB per 10 Gbit/s)
    private static final Sensitivity ETHEREAL_ECN = new Sensitivity("switch.ecn_profile", List.of("dctcp-hpcc"),
            "Ethereal §4.1 runs DCTCP with PFC and states no ECN threshold: DCTCP's own guideline (default) against the "
                    + "HPCC ns-3 DCTCP threshold, 40 times larger at 400 Gbit/s");
    // QP context cache: Ethereal's argument is about QP counts; lbsim's default (450 contexts) is calibrated to StaR
    // (ICNP'21) and PipeDevice (CoNEXT'22), the paper's htsim charges nothing for a QP (unlimited, 0)
    private static final Sensitivity QP_CACHE = new Sensitivity("nic.qp_cache_entries", List.of("0"),
            "lbsim's QP context cache (450 contexts, calibrated to RNIC measurements: StaR ICNP'21, PipeDevice CoNEXT'22) "
                    + "against an unlimited one (0), as in the paper's simulator, which charges nothing for a QP");
    // Ethereal §3.2 is ambiguous on bundles: s is "the number of core switches in a fat-tree" (switch-level paths) while
    // the path ID holds "the uplink index" per hop (a port, bundle members included); the presets default to ports
    private static final Sensitivity ETHEREAL_PATH_CONTROL = Sensitivity.ofGridValue("ethereal", "set.load_balancer.path_control",
            List.of("lag"), "Ethereal §3.2 counts paths as core switches (s = 16 in the 512-GPU fat-tree) but names them by "
                    + "uplink index per hop: path IDs naming ports, bundle members included (default), against switch-level "
                    + "paths whose bundle member the switch hashes (lag); it changes the fat-tree only (4-link bundles)");
    // Ethereal §4.2 fails the link "after a collective starts" without saying when; the preset fails it at 10 us. The
    // range ends where the smallest collective (4 MB, about 0.19 ms on the quick fabric) would finish before the failure
    private static final Sensitivity ETHEREAL_FAILURE_INSTANT = new Sensitivity("failures.0.at_us", List.of("100"),
            "Ethereal §4.2 fails the link 'after a collective starts' at an unstated instant: 10 us (default, after the "
                    + "first round trips) against 100 us (half of a 4 MB collective done); later instants would fall after "
                    + "the smaller collectives end");
    // McClure §4 runs htsim with an RTO it does not state; 1 ms is the presets' default. The first author's public htsim
    // fork (smcclure20/csg-htsim, sim/constant_cca.cpp) estimates the RTO as srtt + 4 mdev (RFC 2988) floored at 100 us,
    // which on this fabric (base RTT ~12 us, at most ~2.6 us of queueing per 32 KB hop) stays at the floor
    private static final Sensitivity MCCLURE_RTO = new Sensitivity("transport.timeout_us", List.of("100", "200", "5000"),
            "McClure et al. §4 state no retransmission timeout; the presets use 1 ms, the range spans 0.1-5 ms (0.1 ms: "
                    + "the floor of the RTT-estimated RTO in the first author's public htsim fork, where this fabric's RTTs "
                    + "keep it)");
    // McClure §3.3 paces at a fixed rate; whether htsim's pacing is strictly periodic is not stated (lbsim's default: it is)
    private static final Sensitivity MCCLURE_PACING_JITTER = new Sensitivity("transport.pacing_jitter", List.of("0.25", "1.0"),
            "McClure et al. §3.3 pace every flow at a fixed rate and do not say whether the packets leave strictly "
                    + "periodically (default 0); each gap uniform in (1 +- j) x the mean, the mean rate unchanged");
    // ParaLet §6 does not state its ECN marking; lbsim's DCQCN default is NVIDIA's switch default
    private static final Sensitivity PARALET_ECN = new Sensitivity("switch.ecn_profile", List.of("dcqcn-hpcc"),
            "ParaLet §6 states no ECN thresholds for its DCQCN: NVIDIA's switch default (150/1500 KB, default) against "
                    + "the HPCC ns-3 setting (100/400 KB per 25 Gbit/s)");
    // ParaLet §6 names no congestion control (only ECMP, DRILL, LetFlow, ConWeave and "the ns-3 codes" it compares with);
    // the presets run DCQCN, the RoCE NICs' own, the range's other end DCTCP, which the HPCC ns-3 code base also runs
    private static final Sensitivity PARALET_CC = new Sensitivity("transport.cc", List.of("dctcp"),
            "ParaLet §6 states no congestion control: DCQCN, a RoCE NIC's own (default), against DCTCP, the other ECN-based "
                    + "rate control of the ns-3 RDMA codes");
    // ParaLet §6 runs "traffic snapshots of the communication pair" without saying where the ranks sit; the presets place
    // them at random (a new draw per seed), the other end contiguous ranks, which keep 3 of every 4 ring neighbours under
    // one ToR of the k = 8 fat-tree
    private static final Sensitivity PARALET_PLACEMENT = new Sensitivity("workload.placement", List.of("contiguous"),
            "ParaLet §6 does not say where the collective's ranks sit: on random hosts (default, a new draw per seed) against "
                    + "contiguous ranks (rank r on host r), which keep most ring neighbours under one ToR");
    // ParaLet §6's DRILL takes "the smallest queue among 2 random samples and the current port"; lbsim's switches compare
    // 8 load bands with random ties (switch.ar_levels, as switch ASICs do), 0 compares exact bytes, the remembered port
    // winning ties (DRILL's paper and the ns-3 codes); only DRILL reads it among the ParaLet presets' schemes
    private static final Sensitivity PARALET_AR_LEVELS = new Sensitivity("switch.ar_levels", List.of("0"),
            "ParaLet §6 does not say how its DRILL compares queues: 8 load bands with random ties (default, as switch "
                    + "ASICs do) against exact queue bytes with the remembered port winning ties (DRILL's paper, ns-3 codes)");
    // CTCCL §4.1 runs NCCL 2.19 (NCCL_IB_TIMEOUT 18, 1.07 s); older NCCL defaults to 14, 2.23 and later to 20
    private static final Sensitivity CTCCL_QP_TIMEOUT = new Sensitivity("nic.local_ack_timeout", List.of("14", "20"),
            "CTCCL §4.1's NCCL 2.19 uses a 1.07 s local ACK timeout (exponent 18, default); NCCL before 2.14 used 67 ms "
                    + "(14), from 2.23 4.3 s (20): whether QPs time out before or after the switches detect the failure");
    // Hopper §4.2's testbed (ConnectX-5) does not state its QP timeout
    private static final Sensitivity HOPPER_TESTBED_TIMEOUT = new Sensitivity("transport.timeout_us", List.of("4194", "1073742"),
            "Hopper §4.2's ConnectX-5 testbed states no local ACK timeout: 4.096 us x 2^14 (default) against 2^10 and 2^18");

    // Hopper §4.1 does not say which signal or parameters its simulated FlowBender used (conweave-ns3 has none); the
    // presets run the original ECN design with T = 5 %, N = 1; the §4.2.1 testbed's FlowBender reacts to RTT instead,
    // and the Hermes ns-3 FlowBender (snowzjx/ns3-load-balance tcp-flow-bender.cc) waits N = 5 congested RTTs
    private static final Sensitivity HOPPER_FLOWBENDER_SIGNAL = Sensitivity.ofGridValue("flowbender", "load_balancer.signal",
            List.of("rtt"), "Hopper §4.1 does not say which congestion signal its simulated FlowBender used: ECN marks (the "
                    + "original design, default) against RTT above th_cong (the paper's own testbed FlowBender, §4.2.1)");
    private static final Sensitivity HOPPER_FLOWBENDER_ROUNDS = Sensitivity.ofGridValue("flowbender", "load_balancer.rounds",
            List.of("5"), "Hopper §4.1 gives no FlowBender parameters: N = 1 congested RTT before a move (default) against "
                    + "N = 5, the Hermes ns-3 FlowBender's");
    // Hopper Table 1 gives th_cong 2.5 x base RTT, Appendix A's example th_cong 14 us beside th_prob 12 us (1.5 x 8 us)
    private static final Sensitivity HOPPER_TH_CONG = Sensitivity.ofGridValue("hopper", "load_balancer.th_cong", List.of("1.75"),
            "Hopper's own statements differ: Table 1 sets th_cong to 2.5 x base RTT (default), Appendix A's example uses "
                    + "14 us beside th_prob 12 us, i.e. 1.75 x the 8 us base RTT of §4.1.1");
    // Hopper §4.1 does not describe its CONGA; the presets take conweave-ns3's (its base), which compares only 4 consecutive
    // paths from a random start (conga-routing.cc GetBestPath(dstToRId, 4)); CONGA's own paper compares every uplink
    private static final Sensitivity HOPPER_CONGA_SAMPLE = Sensitivity.ofGridValue("conga", "load_balancer.sample_paths",
            List.of("0"), "Hopper §4.1 does not describe its CONGA: the best of 4 consecutive paths from a random start, as "
                    + "ConWeave's ns-3 CONGA, the paper's base, chooses (default), against the best of every uplink (0, as "
                    + "CONGA's paper)");
    private static final List<Sensitivity> HOPPER_NS3 = List.of(HOPPER_FLOWBENDER_SIGNAL, HOPPER_FLOWBENDER_ROUNDS, HOPPER_TH_CONG,
            HOPPER_CONGA_SAMPLE);

    private static final Map<String, List<Sensitivity>> BY_PRESET = Map.ofEntries(
            Map.entry("ethereal-fig3", List.of(ETHEREAL_ECN, QP_CACHE)),
            Map.entry("ethereal-fig4", List.of(ETHEREAL_ECN, QP_CACHE, ETHEREAL_PATH_CONTROL)),
            Map.entry("ethereal-fig6", List.of(ETHEREAL_PATH_CONTROL)),
            Map.entry("ethereal-fig7", List.of(ETHEREAL_ECN, ETHEREAL_FAILURE_INSTANT)),
            Map.entry("mcclure-table2", List.of(MCCLURE_PACING_JITTER)),
            Map.entry("mcclure-fig1-2", List.of(MCCLURE_PACING_JITTER)),
            Map.entry("mcclure-fig3", List.of(MCCLURE_PACING_JITTER)),
            Map.entry("mcclure-fig6", List.of(MCCLURE_PACING_JITTER)),
            Map.entry("mcclure-swift", List.of(MCCLURE_PACING_JITTER)),
            Map.entry("mcclure-fig8", List.of(MCCLURE_RTO)),
            Map.entry("mcclure-fig9-11", List.of(MCCLURE_RTO)),
            Map.entry("mcclure-fig10-12", List.of(MCCLURE_RTO)),
            Map.entry("paralet-fig5", List.of(PARALET_ECN, PARALET_CC, PARALET_PLACEMENT, PARALET_AR_LEVELS)),
            Map.entry("paralet-fig4", List.of(PARALET_ECN, PARALET_CC, PARALET_PLACEMENT, PARALET_AR_LEVELS)),
            Map.entry("hopper-fig3", HOPPER_NS3),
            Map.entry("hopper-fig4", HOPPER_NS3),
            Map.entry("hopper-fig8", HOPPER_NS3),
            Map.entry("hopper-fig6", List.of(HOPPER_TESTBED_TIMEOUT)),
            Map.entry("ctccl-fig7", List.of(CTCCL_QP_TIMEOUT)));

    /** The preset's sensitivities; empty when it has none. */
    public static List<Sensitivity> of(String presetId) {
        return BY_PRESET.getOrDefault(presetId, List.of());
    }

    /** Ids of the presets that have sensitivities (for tests). */
    static java.util.Set<String> presetIds() {
        return BY_PRESET.keySet();
    }
}
