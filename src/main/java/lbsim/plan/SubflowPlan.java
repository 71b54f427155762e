package lbsim.plan;

import java.util.ArrayList;
import java.util.List;
import lbsim.BadInputException;
import tools.jackson.databind.node.ObjectNode;

/**
 * Number of subflows for McClure et al.'s "SF" loss-recovery approach (McClure, Ratnasamy, Shenker, "Load
 * Balancing for AI Training Workloads" §7, Eq. 1).
 *
 * <p>One delayed packet can be overtaken by at most {@code D * r / p} packets of its (sub)flow, where
 * {@code D = h * q / b} is the largest difference in queueing delay ({@code h = 4} queues with path choice
 * in a 3-tier fat-tree), {@code r} the (sub)flow's rate, {@code b} the link rate and {@code p} the packet
 * size. A dupACK threshold {@code t} can fire spuriously if {@code t < D * r / p}, i.e. (Eq. 1, with the
 * packet size written out) {@code t < h * q * r / (b * p)}. With {@code f} flows per host each split into
 * {@code s} subflows, {@code r / b = 1 / (f * s)}, so reordering alone can never trigger a retransmission
 * iff {@code s * f * t * p >= h * q}: the plan's subflow count is the smallest such {@code s >= 1},
 * {@code s = max(1, ceil(h * q / (p * f * t)))}.
 *
 * @param queueBytes   q, per-link queue (buffer) size in bytes
 * @param packetBytes  p, data packet size in bytes ({@code --mtu})
 * @param flowsPerHost f, concurrent flows per host
 * @param dupack       t, duplicate-ACK threshold
 * @param queues       h, number of queues whose delay can differ between packets of one flow (4: 3-tier fat-tree)
 * @param linkGbps     b in Gbit/s, or null (only used to report D and the subflow rate)
 * @param subflows     s, the plan
 */
public record SubflowPlan(long queueBytes, long packetBytes, long flowsPerHost, long dupack, int queues,
        Double linkGbps, long subflows) implements Plan {

    public SubflowPlan {
        check(queueBytes, packetBytes, flowsPerHost, dupack, queues);
        if (subflows < 1) {
            throw new BadInputException("subflows must be >= 1; got " + subflows);
        }
    }

    /** h for a 3-tier fat-tree (McClure §7): source/destination links have no path choice. */
    public static final int FAT_TREE_QUEUES = 4;

    private static final String SOURCE = "McClure, Ratnasamy, Shenker, \"Load Balancing for AI Training Workloads\", Sec. 7 Eq. 1";

    /** McClure §7 Eq. 1: the number of subflows that keeps spraying-caused reordering below a dupACK threshold. */
    public static long subflows(long queueBytes, long packetBytes, long flowsPerHost, long dupack, int queues) {
        check(queueBytes, packetBytes, flowsPerHost, dupack, queues);
        long num;
        long den;
        try {
            num = Math.multiplyExact((long) queues, queueBytes);
            den = Math.multiplyExact(Math.multiplyExact(packetBytes, flowsPerHost), dupack);
        } catch (ArithmeticException e) {
            throw new BadInputException("--queues, --queue-bytes, --mtu, --flows-per-host, --dupack: values too large"
                    + " (--queues x --queue-bytes and --mtu x --flows-per-host x --dupack must each be at most " + Long.MAX_VALUE + ")");
        }
        return Math.max(1, ceilDiv(num, den));
    }

    /** ceil(num / den) for num >= 0, den >= 1, without overflowing num + den - 1. */
    private static long ceilDiv(long num, long den) {
        return num / den + (num % den == 0 ? 0 : 1);
    }

    /** Same as {@link #subflows(long, long, long, long, int)} for a 3-tier fat-tree (h = 4). */
    public static long subflows(long queueBytes, long packetBytes, long flowsPerHost, long dupack) {
        return subflows(queueBytes, packetBytes, flowsPerHost, dupack, FAT_TREE_QUEUES);
    }

    /**
     * Largest number of dupACKs one delayed packet can cause with {@code s} subflows per flow:
     * {@code D * r / p = h * q / (p * f * s)} (McClure §7).
     */
    public static double maxDupacks(long queueBytes, long packetBytes, long flowsPerHost, int queues, long s) {
        if (s < 1) {
            throw new BadInputException("subflows must be >= 1; got " + s);
        }
        return (double) queues * queueBytes / ((double) packetBytes * flowsPerHost * s);
    }

    /** Computes the plan; {@code linkGbps} may be null. */
    public static SubflowPlan compute(long queueBytes, long packetBytes, long flowsPerHost, long dupack, int queues,
            Double linkGbps) {
        if (linkGbps != null && !(linkGbps > 0 && !linkGbps.isInfinite())) {
            throw new BadInputException("--link-gbps must be a finite number > 0; got " + linkGbps);
        }
        if (linkGbps != null && Double.isInfinite((double) queues * queueBytes * 8.0 / linkGbps)) {
            throw new BadInputException("--link-gbps is too small: D = h*q/b would not be a finite number of nanoseconds;"
                    + " allowed: a finite number > 0 with --queues x --queue-bytes x 8 / b finite; got " + linkGbps);
        }
        long s = subflows(queueBytes, packetBytes, flowsPerHost, dupack, queues);
        return new SubflowPlan(queueBytes, packetBytes, flowsPerHost, dupack, queues, linkGbps, s);
    }

    private static void check(long q, long p, long f, long t, int h) {
        if (q < 1) {
            throw new BadInputException("--queue-bytes must be an integer >= 1 (per-link queue size q in bytes); got " + q);
        }
        if (p < 1) {
            throw new BadInputException("--mtu must be an integer >= 1 (packet size p in bytes); got " + p);
        }
        if (f < 1) {
            throw new BadInputException("--flows-per-host must be an integer >= 1; got " + f);
        }
        if (t < 1) {
            throw new BadInputException("--dupack must be an integer >= 1 (duplicate-ACK threshold t); got " + t);
        }
        if (h < 1) {
            throw new BadInputException("--queues must be an integer >= 1 (4 for a 3-tier fat-tree, 2 for leaf-spine); got "
                    + h);
        }
    }

    /** Queue size in packets, q / p. */
    public double queuePackets() {
        return (double) queueBytes / packetBytes;
    }

    /** Largest dupACK count one delayed packet can cause at the planned s (never more than t). */
    public double maxDupacksAtPlan() {
        return maxDupacks(queueBytes, packetBytes, flowsPerHost, queues, subflows);
    }

    /** The dupACK threshold that would make s = 1 safe: ceil(h * q / (p * f)). */
    public long dupackForOneSubflow() {
        long num = (long) queues * queueBytes; // fits: checked by subflows()
        long den = packetBytes * flowsPerHost;
        return ceilDiv(num, den);
    }

    /** D = h * q / b in nanoseconds, or NaN without a link rate. */
    public double maxDelayDifferenceNs() {
        return linkGbps == null ? Double.NaN : queues * queueBytes * 8.0 / linkGbps;
    }

    /** Per-subflow rate b / (f * s) in Gbit/s, or NaN without a link rate. */
    public double subflowGbps() {
        return linkGbps == null ? Double.NaN : linkGbps / ((double) flowsPerHost * subflows);
    }

    @Override
    public String kind() {
        return "subflows";
    }

    /**
     * QPs per host above which the plan warns: NICs cache QP contexts on chip, and past about 450 active QPs
     * their misses cost throughput (StaR, ICNP'21 §I; the NIC profiles' qp_cache_entries). A sanity bound, not a hard limit.
     */
    public static final long MAX_QPS_PER_HOST = 450;

    /** Subflows of every flow of a host: s * f QPs (each subflow is one QP or connection). */
    public long qpsPerHost() {
        return Math.multiplyHigh(subflows, flowsPerHost) != 0 ? Long.MAX_VALUE : subflows * flowsPerHost;
    }

    @Override
    public List<String> warnings() {
        if (qpsPerHost() > MAX_QPS_PER_HOST) {
            return List.of("s * f = " + subflows + " * " + flowsPerHost + " = " + (qpsPerHost() == Long.MAX_VALUE ? "more than 2^63"
                    : Long.toString(qpsPerHost())) + " subflows (QPs) per host, more than the " + MAX_QPS_PER_HOST
                    + " a NIC holds without losing throughput to QP-context misses; not deployable as is: raise --dupack"
                    + " or lower --queue-bytes");
        }
        return List.of();
    }

    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        notes.add("Eq. 1 is printed as t < 4qr/b; the derivation above it (t < D*r/p, D = 4q/b) has the packet size"
                + " p in the denominator, so q counts packets there; this plan uses q/p = --queue-bytes / --mtu");
        notes.add("r/b = 1/(f*s), so the result does not depend on the link rate (Sec. 7)");
        if (subflows == 1) {
            notes.add("one subflow suffices: with " + flowsPerHost + " flows per host each flow is already slow enough");
        }
        return notes;
    }

    /** CSV columns of {@code --format csv}. */
    public static final List<String> CSV_COLUMNS = List.of("subflows", "queue_bytes", "mtu", "flows_per_host",
            "dupack", "queues", "queue_packets", "max_dupacks", "dupack_for_one_subflow", "link_gbps",
            "max_delay_difference_ns", "subflow_gbps");

    @Override
    public String render(PlanFormat format) {
        return switch (format) {
            case TEXT -> {
                StringBuilder sb = new StringBuilder();
                sb.append("lbsim plan subflows (").append(SOURCE).append(")\n");
                sb.append("spurious retransmission possible iff t < h*q/(p*f*s); subflows = max(1, ceil(h*q/(p*f*t)))\n");
                sb.append("queue q: ").append(queueBytes).append(" bytes (").append(PlanRendering.num(queuePackets()))
                        .append(" packets)\n");
                sb.append("packet size p (--mtu): ").append(packetBytes).append(" bytes\n");
                sb.append("flows per host f: ").append(flowsPerHost).append('\n');
                sb.append("dupACK threshold t: ").append(dupack).append('\n');
                sb.append("queues with path choice h: ").append(queues).append('\n');
                sb.append("subflows: ").append(subflows).append('\n');
                sb.append("max dupACKs from one delayed packet at this s: ").append(PlanRendering.num(maxDupacksAtPlan()))
                        .append('\n');
                sb.append("dupACK threshold that makes 1 subflow safe: ").append(dupackForOneSubflow()).append('\n');
                if (linkGbps != null) {
                    sb.append("link rate b: ").append(PlanRendering.num(linkGbps)).append(" Gbps\n");
                    sb.append("max queueing-delay difference D = h*q/b: ").append(PlanRendering.num(maxDelayDifferenceNs()))
                            .append(" ns\n");
                    sb.append("per-subflow rate r = b/(f*s): ").append(PlanRendering.num(subflowGbps())).append(" Gbps\n");
                }
                for (String w : warnings()) sb.append("WARNING: ").append(w).append('\n');
                PlanRendering.appendNotes(sb, notes());
                yield sb.toString();
            }
            case JSON -> {
                ObjectNode root = PlanRendering.root(kind(), SOURCE);
                root.put("subflows", subflows);
                root.put("queue_bytes", queueBytes);
                root.put("mtu", packetBytes);
                root.put("flows_per_host", flowsPerHost);
                root.put("dupack", dupack);
                root.put("queues", queues);
                root.put("queue_packets", queuePackets());
                root.put("max_dupacks", maxDupacksAtPlan());
                root.put("dupack_for_one_subflow", dupackForOneSubflow());
                root.put("link_gbps", linkGbps);
                if (linkGbps == null) {
                    root.putNull("max_delay_difference_ns");
                    root.putNull("subflow_gbps");
                } else {
                    root.put("max_delay_difference_ns", maxDelayDifferenceNs());
                    root.put("subflow_gbps", subflowGbps());
                }
                PlanRendering.putStrings(root, "warnings", warnings());
                PlanRendering.putStrings(root, "notes", notes());
                yield PlanRendering.json(root);
            }
            case CSV -> PlanRendering.csv(CSV_COLUMNS, List.of(List.of(Long.toString(subflows),
                    Long.toString(queueBytes), Long.toString(packetBytes), Long.toString(flowsPerHost),
                    Long.toString(dupack), Integer.toString(queues), PlanRendering.num(queuePackets()),
                    PlanRendering.num(maxDupacksAtPlan()), Long.toString(dupackForOneSubflow()),
                    linkGbps == null ? "" : PlanRendering.num(linkGbps),
                    linkGbps == null ? "" : PlanRendering.num(maxDelayDifferenceNs()),
                    linkGbps == null ? "" : PlanRendering.num(subflowGbps()))));
        };
    }
}
