package lbsim.lb;

import lbsim.transport.FlowSpec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import lbsim.topology.PathControl;

/**
 * Registry of load-balancing schemes by scenario name ({@code load_balancer.scheme}). A new
 * scheme is one file plus one entry here: the entry reads the scheme's own keys and returns
 * the factory that builds it for a run.
 */
public final class Schemes {
    private Schemes() {}

    /** Reads a scheme's parameters (validating them) and returns its per-run factory. */
    public interface Binder {
        Function<SchemeContext, Scheme> bind(SchemeParams params);
    }

    private static final Map<String, Binder> BUILT = new LinkedHashMap<>();

    static {
        BUILT.put("ecmp", p -> {
            boolean perConn = p.choice("qp_ports", "per-qp", Ecmp.QP_PORTS).equals("per-connection"); // CTCCL §4.2 NCCL QPs
            return c -> new Scheme("ecmp", new Ecmp.Host(c.random("ecmp"), perConn), ecmpSwitches(c));
        });
        BUILT.put("spray-host", p -> {
            // 0: a fresh random port per packet; N: a fixed set of N per QP, cycled as uet-htsim's oblivious sprayer (-paths N)
            int n = p.intValue("entropies", 0, 0, HostSpray.MAX_ENTROPIES);
            if (!HostSpray.validEntropies(n)) {
                throw p.error("entropies", "must be 0 (a fresh random port per packet) or a power of two from 1 to "
                        + HostSpray.MAX_ENTROPIES + " (a fixed set per QP, as uet-htsim's -paths), not " + n);
            }
            return c -> new Scheme("spray-host", new HostSpray(c.random("spray-host"), n), ecmpSwitches(c));
        });
        BUILT.put("spray-switch", p -> c -> new Scheme("spray-switch", new SwitchSpray.Host(c.random("spray-switch")),
                sw -> new SwitchSpray()));
        BUILT.put("spray-adaptive", p -> c -> new Scheme("spray-adaptive", new SwitchSpray.Host(c.random("spray-adaptive")),
                sw -> new AdaptiveSpray(c.sim().random().stream("lb.spray-adaptive." + c.topology().nodeName(sw.id)))));
        BUILT.put("drill", p -> {
            int d = p.intValue("d", 2, 1, 64);
            return c -> new Scheme("drill", new SwitchSpray.Host(c.random("drill")),
                    sw -> new Drill(d, c.sim().random().stream("lb.drill." + c.topology().nodeName(sw.id))));
        });
        BUILT.put("reps", p -> {
            // defaults: algorithms.md §1.1 (UEC htsim): B = 8, N_EV = 64, MAX_USES = 1, freeze 10 ms, explore 16
            int slots = p.intValue("slots", 8, 1, 1 << 16);
            int evs = p.intValue("entropies", 64, 1, Ecmp.SPORT_RANGE);
            int uses = p.intValue("max_uses", 1, 1, 1 << 16);
            double freezeMs = p.doubleValue("freeze_ms", 10, 0, 1e6);
            int explore = p.intValue("explore_after_freeze", 16, 0, 1 << 20);
            return c -> new Scheme("reps", new Reps(c.random("reps"), slots, evs, uses, freezeMs, explore), ecmpSwitches(c));
        });
        BUILT.put("subflows", p -> {
            int k = p.intValue("count", 2, 1, 4096);
            boolean spray = p.bool("spray", false); // McClure §7 SF: subflows whose packets are sprayed
            return c -> new Scheme("subflows", new Subflows(k, spray, c.random("subflows"), false), ecmpSwitches(c));
        });
        BUILT.put("mprdma", p -> {
            int x = p.intValue("splits", 2, 1, 4096);
            boolean perConn = p.choice("qp_ports", "per-qp", Ecmp.QP_PORTS).equals("per-connection"); // CTCCL §4.2 NCCL QPs
            return c -> new Scheme("mprdma", MpRdma.hostHalf(x, c.random("mprdma"), perConn), ecmpSwitches(c));
        });
        BUILT.put("ethereal", p -> {
            int jitterNs = p.intValue("start_jitter_ns", 0, 0, 1_000_000_000);
            double badMs = p.doubleValue("bad_path_ms", 100.0, 0.0, 1e6);
            // Ethereal §3.2: a path ID byte is the "uplink index" (port, bundle members included); lag: next-hop switch, member hashed
            PathControl control = PathControl.of(p.choice("path_control", "port", PathControl.NAMES));
            return c -> {
                String problem = Ethereal.pathIdProblem(c.topology(), control); // known only with the fabric
                if (problem != null) throw p.error("scheme", "ethereal: " + problem);
                return new Scheme("ethereal", new Ethereal(c.topology(), c.random("ethereal"), jitterNs, badMs, control),
                        ecmpSwitches(c));
            };
        });
        BUILT.put("conweave", p -> {
            ConWeave.Params cw = ConWeave.Params.read(p);
            return c -> {
                int[] hostTor = ConWeave.hostTorNodes(c.topology());
                return new Scheme("conweave", new Ecmp.Host(c.random("conweave")), sw -> new ConWeave(cw, c, sw, hostTor),
                        cw.idealisations());
            };
        });
        // PLB defaults: Linux tcp_plb sysctls (algorithms.md §1.3): K = 0.5, N = 12, M = 3, suspend 60 s
        BUILT.put("plb", p -> plb("plb", p, 0.5, 12, 3, 0, 60_000));
        // McClure §4 host adaptive flowlets: repath at most every ~10 packets when >= 40 % of recent ACKs are marked
        BUILT.put("flowlet-host", p -> plb("flowlet-host", p, 0.4, 1, 0, 10, 0));
        BUILT.put("flowbender", p -> {
            // algorithms.md §1.4: T = 5 %, N = 1 (paper, from memory); rtt_factor: Hopper's th_cong (004 Table 1)
            String signal = p.choice("signal", "ecn", FlowBender.SIGNALS);
            double t = p.doubleValue("threshold", 0.05, 0.0, 1.0);
            int n = p.intValue("rounds", 1, 1, 1 << 20);
            double f = p.doubleValue("rtt_factor", 2.5, 1.0, 1e6);
            PathState st = PathState.read(p);
            return c -> new Scheme("flowbender", new FlowBender(c.random("flowbender"), signal, t, n, f, st.perConnection(),
                    st.betweenQps()), ecmpSwitches(c));
        });
        BUILT.put("hopper", p -> {
            // defaults: Hopper paper 004 Table 1
            double alpha = p.doubleValue("alpha", 1.0, 0.0, 1.0);
            double thProbe = p.doubleValue("th_probe", 1.5, 0.0, 1e6);
            double thCong = p.doubleValue("th_cong", 2.5, 0.0, 1e6);
            double ttl = p.doubleValue("ttl_probe", 4.0, 0.0, 1e6);
            double delta = p.doubleValue("delta_rtt", 0.8, 0.0, 1.0);
            double delay = p.doubleValue("switch_delay", 1.0, 0.0, 1e3);
            double baseUs = p.doubleValue("base_rtt_us", 0.0, 0.0, 1e9);
            // 0: one ACK-sized probe packet; the §4.2.1 testbed probes with 10 KB chunks
            int probeBytes = p.intValue("probe_bytes", 0, 0, 1 << 24);
            PathState st = PathState.read(p);
            return c -> new Scheme("hopper", new Hopper(c.random("hopper"), alpha, thProbe, thCong, ttl, delta, delay, baseUs,
                    probeBytes, st.perConnection(), st.betweenQps()),
                    ecmpSwitches(c));
        });
    }

    /**
     * Keys {@code state} and {@code repath} of hopper and flowbender: path state per QP (default) or carried over
     * the QPs of a {@link Connection}, and moves at once (default) or at the connection's next QP (004 §4.2.1 testbed).
     */
    private record PathState(boolean perConnection, boolean betweenQps) {
        static PathState read(SchemeParams p) {
            boolean perConnection = p.choice("state", "per-qp", Connection.SCOPES).equals("per-connection");
            boolean betweenQps = p.choice("repath", "within-qp", Connection.REPATH).equals("between-qps");
            if (betweenQps && !perConnection) {
                throw p.error("repath", "'between-qps' needs state: per-connection (a QP's planned move would go to a QP that "
                        + "does not take it over); allowed with state: per-qp: within-qp");
            }
            return new PathState(perConnection, betweenQps);
        }
    }

    private static Function<SchemeContext, Scheme> plb(String name, SchemeParams p, double k, int n, int m, int roundPackets,
                                                       double suspendMs) {
        double threshold = p.doubleValue("threshold", k, 0.0, 1.0);
        int rounds = p.intValue("rounds", n, 1, 1 << 20);
        int idle = p.intValue("idle_rounds", m, 0, 1 << 20);
        int pkts = p.intValue("round_packets", roundPackets, 0, 1 << 20);
        double suspend = p.doubleValue("suspend_ms", suspendMs, 0.0, 1e9);
        return c -> new Scheme(name, new Plb(c.random(name), threshold, rounds, idle, pkts, suspend), ecmpSwitches(c));
    }

    static {
        BUILT.put("ecmp-ar", p -> {
            // McClure §4 gives no threshold; 8192 B = more than one MTU packet waiting (htsim's lowest queue band is 5% of its 32 KB queue)
            int threshold = p.intValue("threshold_bytes", 8192, 0, Integer.MAX_VALUE);
            return c -> new Scheme("ecmp-ar", new Ecmp.Host(c.random("ecmp")), sw -> new EcmpAr(c.sim(),
                    c.switchSeed(sw, "ecmp"), threshold, c.sim().random().stream("lb.ecmp-ar." + c.topology().nodeName(sw.id))));
        });
        BUILT.put("letflow", p -> {
            // 100 us: ConWeave ns-3 letflow_flowletTimeout at 100 Gbps (algorithms.md §1.6), ParaLet §6's middle value
            double gapUs = p.doubleValue("gap_us", 100, 0, 1e12);
            return c -> new Scheme("letflow", new Ecmp.Host(c.random("letflow")), sw -> new LetFlow(c.sim(), gapUs,
                    c.sim().random().stream("lb.letflow." + c.topology().nodeName(sw.id))));
        });
        BUILT.put("flowlet-switch", p -> {
            // 10 us: htsim FatTreeSwitch's default flowlet gap (_sticky_delta), the simulator of McClure §4
            double gapUs = p.doubleValue("gap_us", 10, 0, 1e12);
            return c -> new Scheme("flowlet-switch", new Ecmp.Host(c.random("flowlet-switch")), sw -> new FlowletSwitch(c.sim(),
                    gapUs, c.sim().random().stream("lb.flowlet-switch." + c.topology().nodeName(sw.id))));
        });
        BUILT.put("conga", p -> {
            // defaults: ConWeave ns-3 network-load-balance.cc at 100 Gbps (algorithms.md §1.5); the paper's own values are unverified
            Conga.Params cp = new Conga.Params(p.doubleValue("gap_us", 100, 0, 1e12), p.doubleValue("dre_us", 50, 0.001, 1e6),
                    p.doubleValue("alpha", 0.2, 1e-6, 1), p.intValue("q_bits", 3, 1, 16), p.doubleValue("age_us", 500, 0, 1e12),
                    p.choice("feedback", "all", Conga.FEEDBACK).equals("data"),
                    // read only when given, so runs without it keep their resolved scenario (and its hash)
                    p.has("sample_paths") ? p.intValue("sample_paths", 0, 0, 1 << 16) : 0);
            return c -> {
                int uplinks = Conga.maxUplinks(c.topology());
                return new Scheme("conga", new Ecmp.Host(c.random("conga")), sw -> new Conga(c.sim(), c.topology(), sw, cp, uplinks,
                        c.switchSeed(sw, "ecmp"), c.sim().random().stream("lb.conga." + c.topology().nodeName(sw.id))));
            };
        });
        BUILT.put("paralet", p -> {
            int m = p.intValue("m", 32, 1, Ecmp.SPORT_RANGE); // DESIGN.md / ParaLet §6: m = 32
            int flowlet = p.intValue("flowlet_bytes", 0, 0, 1 << 30); // 0: 4·BDP/m (ParaLet §5.2)
            return c -> new Scheme("paralet", new ParaLet(c.sim(), c.topology(), m, flowlet), ecmpSwitches(c));
        });
        BUILT.put("dnlb", p -> {
            int qps = p.intValue("qps", 8, 1, Dnlb.MAX_QPS); // CTCCL §4.2-4.3: QP = 8
            int dscp = p.intValue("dscp", 26, 0, 63); // no value in the paper; 26 is the usual RoCE DSCP
            int v = p.intValue("virtual_spines_per_spine", 1, 1, 64); // CTCCL §4.1 VRF
            return c -> Dnlb.scheme(c, qps, dscp, v, p); // whether v fits is known only with the fabric
        });
    }

    private static Function<lbsim.net.Switch, lbsim.net.ForwardingStrategy> ecmpSwitches(SchemeContext c) {
        return sw -> new Ecmp.Hash(c.switchSeed(sw, "ecmp"));
    }

    /**
     * Schemes whose host half opens its own QPs per flow and does not read the workload's
     * {@code FlowSpec.qps} (a collective's qps_per_connection), with what decides their count.
     */
    private static final Map<String, String> OWN_QPS = Map.of(
            "subflows", "its load_balancer.count", "mprdma", "its load_balancer.splits",
            "ethereal", "one per path piece, Sec. 3", "paralet", "its load_balancer.m slots per host",
            "dnlb", "its load_balancer.qps");

    /** What decides the QPs of a flow under {@code scheme} when it is not the workload's QP count; null if the scheme reads it. */
    public static String ownQpCount(String scheme) {
        return OWN_QPS.get(scheme);
    }

    /** Every name of the interface contract, in presentation order. */
    public static final List<String> ALL = List.of("ecmp", "spray-host", "spray-switch", "spray-adaptive", "drill",
            "ecmp-ar", "letflow", "flowlet-switch", "flowlet-host", "plb", "flowbender", "conga", "conweave", "reps",
            "mprdma", "subflows", "ethereal", "paralet", "dnlb", "hopper");

    /** Names that can run today, in presentation order. */
    public static List<String> available() {
        return ALL.stream().filter(BUILT::containsKey).toList();
    }

    public static boolean isAvailable(String name) {
        return BUILT.containsKey(name);
    }

    /** Builds a scheme with every parameter at its default (for programmatic use). */
    public static Scheme create(String name, SchemeContext ctx) {
        SchemeParams defaults = new SchemeParams() {
            @Override
            public int intValue(String key, int def, int min, int max) {
                return def;
            }

            @Override
            public double doubleValue(String key, double def, double min, double max) {
                return def;
            }
        };
        return bind(name, defaults).apply(ctx);
    }

    /** Reads the scheme's keys; throws IllegalArgumentException for an unavailable name. */
    public static Function<SchemeContext, Scheme> bind(String name, SchemeParams params) {
        Binder b = BUILT.get(name);
        if (b == null) throw new IllegalArgumentException("scheme not available: " + name);
        return b.bind(params);
    }
}
