package lbsim.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Keys a section accepts whatever its other settings are, but reads only with some of them: a
 * congestion control's, a loss recovery's, PFC's or a collective op's own keys. Given with another
 * setting they change nothing, so the run warns (summary.json {@code warnings}, stderr) naming the
 * key, the setting and what reads it. A warning, not an error as for a {@code load_balancer} key
 * the scheme does not read: a sweep varies e.g. {@code transport.cc} over a grid while the other
 * keys stay fixed. Only keys the user gave (in the file or with {@code --set}) are checked, also
 * when set to their default; keys left to their default never warn.
 */
final class UnreadKeys {
    private UnreadKeys() {}

    /** {@code key} is read only when {@code setting} (a key path of the resolved scenario) is one of {@code readWith}. */
    record Rule(String key, String setting, List<String> readWith) {}

    /** Collective ops that reduce: their received data is reduced at {@code reduce_gbps} before it is forwarded. */
    private static final List<String> REDUCING_OPS = List.of("all-reduce", "reduce-scatter", "reduce");

    static final List<Rule> RULES = List.of(
            // congestion controls (transport.TransportSpec.resolve, transport.CongestionControls)
            new Rule("transport.dctcp_g", "transport.cc", List.of("dctcp")),
            new Rule("transport.dctcp_alpha0", "transport.cc", List.of("dctcp")),
            new Rule("transport.dctcp_variant", "transport.cc", List.of("dctcp")),
            new Rule("transport.init_cwnd_bytes", "transport.cc", List.of("dctcp", "swift", "uec")),
            new Rule("transport.rate_coefficient", "transport.cc", List.of("fixed-rate")),
            new Rule("transport.pacing_jitter", "transport.cc", List.of("fixed-rate")),
            new Rule("transport.swift_base_target_us", "transport.cc", List.of("swift")),
            new Rule("transport.uec_target_qdelay_us", "transport.cc", List.of("uec")),
            new Rule("transport.dcqcn_params", "transport.cc", List.of("dcqcn")),
            new Rule("transport.uec_qa_gate", "transport.cc", List.of("uec")),
            new Rule("transport.uec_nscc", "transport.cc", List.of("uec")),
            // loss recoveries (transport.LossRecoveries)
            // the NIC (NicSpec): a reorder window only for a windowed receiver
            new Rule("nic.reorder_window_packets", "nic.reorder", List.of("window")),
            new Rule("transport.irn_rto_low_us", "transport.loss_recovery", List.of("irn")),
            new Rule("transport.irn_rto_high_us", "transport.loss_recovery", List.of("irn")),
            new Rule("transport.irn_nack", "transport.loss_recovery", List.of("irn")),
            new Rule("transport.dupack_threshold", "transport.loss_recovery", List.of("tcp")),
            new Rule("transport.erasure_overhead", "transport.loss_recovery", List.of("erasure")),
            // switch modes (net.SharedBuffer): the egress alpha only drop-tail, the XOFF settings only lossless
            new Rule("switch.alpha", "transport.pfc", List.of("false")),
            new Rule("switch.pfc_alpha", "transport.pfc", List.of("true")),
            new Rule("switch.pfc_headroom_bytes", "transport.pfc", List.of("true")),
            new Rule("switch.pfc_resume_offset_bytes", "transport.pfc", List.of("true")),
            // the adaptive-routing load bands (net.Switch.arLoad): only schemes whose switches pick the least-loaded port
            new Rule("switch.ar_levels", "load_balancer.scheme", List.of("spray-adaptive", "drill", "ecmp-ar", "flowlet-switch")),
            // collective ops (workload.collective): a root only for rooted ops; a snapshot keeps only the pairs
            new Rule("workload.root", "workload.op", List.of("broadcast", "reduce")),
            new Rule("workload.channels", "workload.snapshot", List.of("false")),
            new Rule("workload.chunk_bytes", "workload.snapshot", List.of("false")),
            new Rule("workload.reduce_gbps", "workload.snapshot", List.of("false")));

    /**
     * Warnings for the keys {@code given} (the scenario tree as the user wrote it, overrides applied)
     * sets that the {@code resolved} scenario does not read, at most one per key. Unread keys the user
     * did not give are removed from {@code resolved}: their defaults were filled in, but the run does not
     * use them, and a run of scenario.resolved.yaml must not warn about keys its original did not set.
     */
    static List<String> check(JsonNode given, ObjectNode resolved) {
        Map<String, String> unread = new LinkedHashMap<>(); // key -> why, in table order, first reason per key
        for (Rule r : RULES) {
            JsonNode v = at(resolved, r.setting());
            if (v == null || r.readWith().contains(v.asString())) continue;
            unread.putIfAbsent(r.key(), "is not read with " + name(r.key(), r.setting()) + ": " + v.asString() + " (read with "
                    + name(r.key(), r.setting()) + ": " + String.join(" | ", r.readWith()) + ")");
        }
        // conditions beyond one setting's value
        JsonNode w = resolved.path("workload");
        String op = w.path("op").asString();
        if (w.has("op") && !REDUCING_OPS.contains(op)
                // all-gather's halving-doubling and recursive-doubling fold extra ranks (non-power-of-two) with a reduction step
                && !(op.equals("all-gather")
                        && List.of("halving-doubling", "recursive-doubling", "hierarchical").contains(w.path("algorithm").asString()))) {
            unread.putIfAbsent("workload.reduce_gbps", "is not read with op: " + op + " and algorithm: " + w.path("algorithm").asString()
                    + " (read with op: " + String.join(" | ", REDUCING_OPS)
                    + ", and all-gather with halving-doubling, recursive-doubling or hierarchical)");
        }
        if (w.has("jobs") && w.path("jobs").asLong() <= 1) {
            unread.putIfAbsent("workload.job_hosts", "is not read with jobs: " + w.path("jobs").asLong() + " (read with jobs > 1)");
        }
        if (w.has("qps_per_connection") && w.path("qps_per_connection").asLong() == 0) {
            unread.putIfAbsent("workload.split_data_on_qps", "is not read with qps_per_connection: 0 (read with qps_per_connection > 0)");
        }
        long portBuffer = resolved.path("topology").path("port_buffer_bytes").asLong(0);
        for (String k : List.of("switch.alpha", "switch.pfc_alpha")) {
            if (portBuffer > 0) {
                unread.putIfAbsent(k, "is not read with topology.port_buffer_bytes: " + portBuffer
                        + " (a static per-port buffer; read with the shared buffer, port_buffer_bytes: 0)");
            }
        }
        // irn's timeout is irn_rto_high_us, which defaults to an explicit timeout_us (TransportSpec.baseTimeoutUs)
        if (resolved.path("transport").path("loss_recovery").asString().equals("irn")) {
            if (isGiven(given, "transport.irn_rto_high_us") || !isGiven(given, "transport.timeout_us")) {
                unread.putIfAbsent("transport.timeout_us", "is not read with loss_recovery: irn when irn_rto_high_us is set (irn's"
                        + " timeout is irn_rto_high_us; timeout_us is read by the other loss recoveries, and by irn only as the default"
                        + " of irn_rto_high_us)");
            } else {
                // irn_rto_high_us is timeout_us: recorded as given, timeout_us alone
                unread.putIfAbsent("transport.irn_rto_high_us", "is timeout_us");
            }
        }
        // the QP timer is timeout_us when given, else the NIC's local ACK timeout (TransportSpec.baseTimeoutUs)
        if (isGiven(given, "transport.timeout_us")) {
            unread.putIfAbsent("nic.local_ack_timeout", "is not read when transport.timeout_us is set (the QP's timer is then"
                    + " timeout_us; local_ack_timeout gives its default, 4.096 us x 2^t)");
        } else if (resolved.path("nic").path("local_ack_timeout").asLong(0) > 0) {
            // timeout_us is the local ACK timeout: recorded as local_ack_timeout alone
            unread.putIfAbsent("transport.timeout_us", "is local_ack_timeout");
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : unread.entrySet()) {
            if (isGiven(given, e.getKey())) {
                out.add(e.getKey() + " " + e.getValue());
            } else {
                int dot = e.getKey().lastIndexOf('.');
                JsonNode section = at(resolved, e.getKey().substring(0, dot));
                if (section instanceof ObjectNode o) o.remove(e.getKey().substring(dot + 1));
            }
        }
        return out;
    }

    /** The setting as the message names it: without its section when that is the key's own. */
    private static String name(String key, String setting) {
        String section = key.substring(0, key.indexOf('.') + 1);
        return setting.startsWith(section) ? setting.substring(section.length()) : setting;
    }

    private static boolean isGiven(JsonNode given, String path) {
        JsonNode v = at(given, path);
        return v != null;
    }

    /** The value at a dotted path, or null when absent or null. */
    private static JsonNode at(JsonNode root, String path) {
        JsonNode cur = root;
        for (String p : path.split("\\.")) {
            if (cur == null || !cur.isObject()) return null;
            cur = cur.get(p);
        }
        return cur == null || cur.isNull() ? null : cur;
    }
}
