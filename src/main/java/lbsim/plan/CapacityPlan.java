package lbsim.plan;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;
import lbsim.BadInputException;
import tools.jackson.databind.node.ObjectNode;

/**
 * McClure et al.'s check that partial link failures between a pod and the core leave enough capacity for
 * an all-to-all (McClure, Ratnasamy, Shenker, "Load Balancing for AI Training Workloads";
 * Appendix A, Eq. 2), for a k-ary 3-tier fat-tree:
 *
 * <pre>
 *   k^3/4 - 1  &gt;  (k^2/4) (k^3/4 - k^2/4) / (k^2/4 - f (1 - p))        (Eq. 2 as printed)
 * </pre>
 *
 * The left side is the number of flows on a host-ToR link (every other host); the right side is the number
 * of flows leaving a pod ({@code k^2/4} hosts, each with {@code k^3/4 - k^2/4} flows to other pods) per
 * pod-core link of remaining capacity. {@code f} is the number of degraded pod-core links of a pod and
 * {@code p} "the percentage of bandwidth lost" (a fraction in [0, 1]).
 *
 * <p>As printed, the denominator subtracts {@code f (1 - p)}: the bandwidth the failed links <em>keep</em>.
 * With {@code p} the lost fraction, the capacity a pod loses is {@code f p}. Both readings are computed
 * ({@link Reading}); {@code sufficient} follows the selected one (default: lost bandwidth, the physical reading). Neither reading
 * matches all of the paper's §4 statements for k = 8; see docs/plan.md.
 *
 * <p>All comparisons are exact (decimal arithmetic on the given {@code p}).
 */
public final class CapacityPlan implements Plan {

    /** How Eq. 2's denominator treats p. */
    public enum Reading {
        /** Eq. 2 exactly as printed: denominator {@code k^2/4 - f (1 - p)}. */
        AS_PRINTED("as-printed"),
        /** Each failed link keeps {@code 1 - p} of its bandwidth: denominator {@code k^2/4 - f p}. */
        LOST_BANDWIDTH("lost-bandwidth");

        private final String optionValue;

        Reading(String optionValue) {
            this.optionValue = optionValue;
        }

        public String optionValue() {
            return optionValue;
        }

        /** Parses a {@code --reading} value. */
        public static Reading parse(String value) {
            for (Reading r : values()) {
                if (r.optionValue.equalsIgnoreCase(value == null ? "" : value.trim())) {
                    return r;
                }
            }
            throw new BadInputException("--reading: unknown value '" + value + "'; allowed values: as-printed, lost-bandwidth");
        }
    }

    /** One reading's numbers. {@code rhs} and {@code margin} are null when the denominator is <= 0. */
    public record Side(Reading reading, BigDecimal lostLinks, BigDecimal denominator, Double rhs, Double margin,
            boolean sufficient) {
    }

    /** Largest k accepted. */
    public static final int MAX_K = 4096;

    private static final String SOURCE = "McClure, Ratnasamy, Shenker, \"Load Balancing for AI Training Workloads\", Appendix A Eq. 2";

    private final int k;
    private final int failedLinks;
    /** Decimal places a lost fraction may have (1e-999999999 would make Eq. 2's exact arithmetic a billion digits long). */
    public static final int MAX_FRACTION_DIGITS = 1000;

    private final BigDecimal lostFraction;
    private final Reading reading;
    private final Side asPrinted;
    private final Side lostBandwidth;

    private CapacityPlan(int k, int failedLinks, BigDecimal lostFraction, Reading reading) {
        this.k = k;
        this.failedLinks = failedLinks;
        this.lostFraction = lostFraction;
        this.reading = reading;
        this.asPrinted = side(Reading.AS_PRINTED);
        this.lostBandwidth = side(Reading.LOST_BANDWIDTH);
    }

    /** Computes the check. */
    public static CapacityPlan compute(int k, int failedLinks, BigDecimal lostFraction, Reading reading) {
        if (k < 2 || k > MAX_K || k % 2 != 0) {
            throw new BadInputException("--k must be an even integer in 2.." + MAX_K + " (fat-tree switch radix); got " + k);
        }
        long podLinks = (long) k * k / 4;
        if (failedLinks < 0 || failedLinks > podLinks) {
            throw new BadInputException("--failed-links must be an integer in 0..k^2/4 = " + podLinks
                    + " (degraded links between one pod and the core); got " + failedLinks);
        }
        if (lostFraction == null || lostFraction.signum() < 0 || lostFraction.compareTo(BigDecimal.ONE) > 0) {
            // toString, not toPlainString: 1E+999999999 would be a billion digits
            throw new BadInputException("--lost-fraction must be a number in 0..1 (fraction of each failed link's"
                    + " bandwidth that is lost, e.g. 0.9 for 90%); got " + (lostFraction == null ? "nothing" : lostFraction));
        }
        if (lostFraction.stripTrailingZeros().scale() > MAX_FRACTION_DIGITS) {
            throw new BadInputException("--lost-fraction must have at most " + MAX_FRACTION_DIGITS + " decimal places; got "
                    + lostFraction);
        }
        if (reading == null) {
            throw new BadInputException("--reading: allowed values: as-printed, lost-bandwidth");
        }
        return new CapacityPlan(k, failedLinks, lostFraction, reading);
    }

    /** Convenience: Eq. 2 under the lost-bandwidth reading, p given as a double (converted through its decimal string). */
    public static boolean sufficient(int k, int failedLinks, double lostFraction) {
        return compute(k, failedLinks, BigDecimal.valueOf(lostFraction), Reading.LOST_BANDWIDTH).sufficient();
    }

    /** Hosts of the fat-tree, k^3/4. */
    public long hosts() {
        return (long) k * k * k / 4;
    }

    /** Pod-core links of one pod (and hosts per pod), k^2/4. */
    public long podCoreLinks() {
        return (long) k * k / 4;
    }

    /** Eq. 2's left side: flows on one host-ToR link, k^3/4 - 1. */
    public long flowsPerHostLink() {
        return hosts() - 1;
    }

    /** Eq. 2's right-side numerator: flows leaving one pod, (k^2/4)(k^3/4 - k^2/4). */
    public long flowsLeavingPod() {
        return podCoreLinks() * (hosts() - podCoreLinks());
    }

    /** Pod-core capacity (in links) that may be lost with Eq. 2 still holding: k^2/4 - flowsLeavingPod / (k^3/4 - 1). */
    public double spareLinks() {
        return podCoreLinks() - (double) flowsLeavingPod() / flowsPerHostLink();
    }

    private Side side(Reading r) {
        BigDecimal f = BigDecimal.valueOf(failedLinks);
        BigDecimal lost = r == Reading.AS_PRINTED ? f.multiply(BigDecimal.ONE.subtract(lostFraction))
                : f.multiply(lostFraction);
        BigDecimal denominator = BigDecimal.valueOf(podCoreLinks()).subtract(lost);
        BigDecimal lhs = BigDecimal.valueOf(flowsPerHostLink());
        BigDecimal flows = BigDecimal.valueOf(flowsLeavingPod());
        if (denominator.signum() <= 0) {
            return new Side(r, lost, denominator, null, null, false);
        }
        // lhs > flows / denominator  <=>  lhs * denominator > flows   (denominator > 0), exact
        boolean ok = lhs.multiply(denominator).compareTo(flows) > 0;
        BigDecimal rhs = flows.divide(denominator, MathContext.DECIMAL64);
        return new Side(r, lost, denominator, rhs.doubleValue(), lhs.subtract(rhs).doubleValue(), ok);
    }

    public int k() {
        return k;
    }

    public int failedLinks() {
        return failedLinks;
    }

    public BigDecimal lostFraction() {
        return lostFraction;
    }

    public Reading reading() {
        return reading;
    }

    /** The result of the selected reading. */
    public boolean sufficient() {
        return selected().sufficient();
    }

    public Side asPrinted() {
        return asPrinted;
    }

    public Side lostBandwidth() {
        return lostBandwidth;
    }

    public Side selected() {
        return reading == Reading.AS_PRINTED ? asPrinted : lostBandwidth;
    }

    @Override
    public String kind() {
        return "capacity";
    }

    @Override
    public List<String> warnings() {
        if (asPrinted.sufficient() != lostBandwidth.sufficient()) {
            return List.of("the two readings of Appendix A Eq. 2 disagree here: as-printed says "
                    + asPrinted.sufficient() + ", lost-bandwidth says " + lostBandwidth.sufficient()
                    + " (see notes and docs/plan.md)");
        }
        return List.of();
    }

    public List<String> notes() {
        return List.of("Eq. 2 as printed subtracts f(1-p), the bandwidth the failed links keep, although the text"
                        + " defines p as the bandwidth lost; the default --reading lost-bandwidth subtracts f*p, the capacity"
                        + " a pod loses",
                "the paper's own cases (k = 8) are inconsistent with either reading: as printed, 9 links at 20 % come out"
                        + " insufficient and 3 at 90 % sufficient, the reverse of Figs. 4 and 5; under lost-bandwidth, 4 links"
                        + " at 60 % (2.4 links lost, 1.89 spare) come out insufficient although Fig. 4 shows them as sufficient",
                "f counts degraded links between one pod and the core (the paper sets failures per pod);"
                        + " the check assumes perfect load balancing and an all-to-all");
    }

    /** CSV columns of {@code --format csv}. */
    public static final List<String> CSV_COLUMNS = List.of("sufficient", "k", "failed_links", "lost_fraction",
            "reading", "lhs", "rhs", "margin", "hosts", "pod_core_links", "flows_leaving_pod", "spare_links",
            "as_printed_sufficient", "as_printed_lost_links", "as_printed_rhs", "lost_bandwidth_sufficient",
            "lost_bandwidth_lost_links", "lost_bandwidth_rhs");

    @Override
    public String render(PlanFormat format) {
        Side sel = selected();
        return switch (format) {
            case TEXT -> {
                StringBuilder sb = new StringBuilder();
                sb.append("lbsim plan capacity (").append(SOURCE).append(")\n");
                sb.append("Eq. 2: k^3/4 - 1 > (k^2/4)(k^3/4 - k^2/4) / (k^2/4 - lost), lost = f(1-p) as printed")
                        .append(" or f*p (lost-bandwidth)\n");
                sb.append("k: ").append(k).append(" (").append(hosts()).append(" hosts, ").append(podCoreLinks())
                        .append(" pod-core links per pod)\n");
                sb.append("failed links per pod f: ").append(failedLinks).append('\n');
                sb.append("lost fraction p: ").append(PlanRendering.num(lostFraction)).append('\n');
                sb.append("reading: ").append(reading.optionValue()).append('\n');
                sb.append("sufficient: ").append(sel.sufficient());
                // on the answer's own line: a reader who stops here must not miss that the other reading disagrees
                if (!warnings().isEmpty()) sb.append("   <- WARNING: the other reading disagrees, see below");
                sb.append('\n');
                sb.append("lhs (flows per host-ToR link): ").append(flowsPerHostLink()).append('\n');
                sb.append("rhs (pod-leaving flows per remaining pod-core link): ").append(text(sel.rhs())).append('\n');
                sb.append("margin (lhs - rhs): ").append(text(sel.margin())).append('\n');
                sb.append("spare pod-core capacity: ").append(PlanRendering.num(spareLinks()))
                        .append(" links (sufficient iff lost < spare)\n");
                for (Side s : List.of(asPrinted, lostBandwidth)) {
                    sb.append(s.reading().optionValue()).append(": lost ").append(PlanRendering.num(s.lostLinks()))
                            .append(" links, rhs ").append(text(s.rhs())).append(", sufficient ")
                            .append(s.sufficient()).append('\n');
                }
                for (String w : warnings()) {
                    sb.append("WARNING: ").append(w).append('\n');
                }
                PlanRendering.appendNotes(sb, notes());
                yield sb.toString();
            }
            case JSON -> {
                ObjectNode root = PlanRendering.root(kind(), SOURCE);
                root.put("k", k);
                root.put("failed_links", failedLinks);
                root.put("lost_fraction", lostFraction.doubleValue());
                root.put("reading", reading.optionValue());
                root.put("sufficient", sel.sufficient());
                root.put("lhs", flowsPerHostLink());
                root.put("rhs", sel.rhs());
                root.put("margin", sel.margin());
                root.put("hosts", hosts());
                root.put("pod_core_links", podCoreLinks());
                root.put("flows_leaving_pod", flowsLeavingPod());
                root.put("spare_links", spareLinks());
                ObjectNode readings = root.putObject("readings");
                for (Side s : List.of(asPrinted, lostBandwidth)) {
                    ObjectNode o = readings.putObject(s.reading().optionValue());
                    o.put("lost_links", s.lostLinks().doubleValue());
                    o.put("denominator", s.denominator().doubleValue());
                    o.put("rhs", s.rhs());
                    o.put("margin", s.margin());
                    o.put("sufficient", s.sufficient());
                }
                PlanRendering.putStrings(root, "warnings", warnings());
                PlanRendering.putStrings(root, "notes", notes());
                yield PlanRendering.json(root);
            }
            case CSV -> PlanRendering.csv(CSV_COLUMNS, List.of(List.of(Boolean.toString(sel.sufficient()),
                    Integer.toString(k), Integer.toString(failedLinks), PlanRendering.num(lostFraction),
                    reading.optionValue(), Long.toString(flowsPerHostLink()), fmt(sel.rhs()), fmt(sel.margin()),
                    Long.toString(hosts()), Long.toString(podCoreLinks()), Long.toString(flowsLeavingPod()),
                    PlanRendering.num(spareLinks()), Boolean.toString(asPrinted.sufficient()),
                    PlanRendering.num(asPrinted.lostLinks()), fmt(asPrinted.rhs()),
                    Boolean.toString(lostBandwidth.sufficient()), PlanRendering.num(lostBandwidth.lostLinks()),
                    fmt(lostBandwidth.rhs()))));
        };
    }

    private static String text(Double d) {
        return d == null ? "infinite (no pod-core capacity left)" : PlanRendering.num(d);
    }

    private static String fmt(Double d) {
        return d == null ? "" : PlanRendering.num(d);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "CapacityPlan[k=%d, f=%d, p=%s, %s: sufficient=%b]", k, failedLinks,
                lostFraction.toPlainString(), reading.optionValue(), sufficient());
    }
}
