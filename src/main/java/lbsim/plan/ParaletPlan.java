package lbsim.plan;

import java.util.ArrayList;
import java.util.List;
import lbsim.BadInputException;
import lbsim.lb.ParaLet;
import org.apache.commons.statistics.distribution.NormalDistribution;
import tools.jackson.databind.node.ObjectNode;

/**
 * ParaLet's number of parallel flowlets / QPs per flow, {@code m} (Cao et al., "Network Load Balancing with
 * Parallel Flowlets for AI Training Clusters" §4.1 Eq. 1, §5.2).
 *
 * <p>Eq. 1: {@code slowdown(N, m) = 1 + z / sqrt(m)} with {@code z = Phi^-1(1 - 1/N)}, N the number of GPU
 * nodes. The plan's {@code m} is the smallest integer with {@code slowdown(N, m) <= X}. With a BDP the
 * flowlet (message) size {@code S = 4 * BDP / m} (§5.2) is given too, rounded up to whole bytes.
 *
 * @param nodes          N, number of GPU nodes (>= 2)
 * @param slowdownTarget X, largest acceptable predicted slowdown (> 1)
 * @param z              Phi^-1(1 - 1/N)
 * @param m              smallest integer with 1 + z / sqrt(m) <= X
 * @param predicted      Eq. 1 at m
 * @param bdpBytes       BDP in bytes, or null
 * @param flowletBytes   ceil(4 * BDP / m), or null without a BDP
 * @param notes          remarks, including where the paper's worked example disagrees with Eq. 1
 */
public record ParaletPlan(long nodes, double slowdownTarget, double z, long m, double predicted, Long bdpBytes,
        Long flowletBytes, List<String> notes) implements Plan {

    /** Largest m reported; closer targets are rejected. */
    public static final long MAX_M = Integer.MAX_VALUE;

    private static final String SOURCE = "ParaLet: Cao et al., \"Network Load Balancing with Parallel Flowlets for AI Training Clusters\", Sec. 4.1 Eq. 1, Sec. 5.2";
    private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0, 1);

    public ParaletPlan {
        notes = List.copyOf(notes);
    }

    /** {@code z = Phi^-1(1 - 1/N)} (ParaLet §4.1), computed as the inverse survival function at 1/N for accuracy. */
    public static double z(long nodes) {
        checkNodes(nodes);
        return STANDARD_NORMAL.inverseSurvivalProbability(1.0 / nodes);
    }

    /** ParaLet §4.1 Eq. 1: {@code SlowDown = 1 + Phi^-1(1 - 1/N) / sqrt(m)}. */
    public static double predictedSlowdown(long nodes, long m) {
        if (m < 1) {
            throw new BadInputException("m must be an integer >= 1; got " + m);
        }
        return 1 + z(nodes) / Math.sqrt(m);
    }

    /** The smallest integer m with {@code predictedSlowdown(nodes, m) <= slowdown} (ParaLet §4.1 Eq. 1, §5.2). */
    public static long minimumM(long nodes, double slowdown) {
        checkNodes(nodes);
        checkSlowdown(slowdown);
        double z = z(nodes);
        double bound = Math.pow(z / (slowdown - 1), 2); // m >= (z / (X - 1))^2, §5.2
        if (!(bound <= MAX_M)) {
            throw new BadInputException("--slowdown " + PlanRendering.num(slowdown) + " is too close to 1 for --nodes "
                    + nodes + ": m would exceed " + MAX_M + "; allowed: a slowdown > 1 with (Phi^-1(1-1/N)/(X-1))^2 <= "
                    + MAX_M);
        }
        long m = Math.max(1, (long) Math.ceil(bound));
        // guard against rounding in the closed form: settle on the exact smallest m by Eq. 1 itself
        while (m > 1 && 1 + z / Math.sqrt(m - 1) <= slowdown) {
            m--;
        }
        while (1 + z / Math.sqrt(m) > slowdown) {
            m++;
        }
        return m;
    }

    /** Computes the plan. {@code bdpBytes} may be null. */
    public static ParaletPlan compute(long nodes, double slowdown, Long bdpBytes) {
        checkNodes(nodes);
        checkSlowdown(slowdown);
        if (bdpBytes != null) {
            ParaLet.checkBdp(bdpBytes);
        }
        double z = z(nodes);
        long m = minimumM(nodes, slowdown);
        double predicted = 1 + z / Math.sqrt(m);
        Long flowlet = bdpBytes == null ? null : ParaLet.flowletBytes(bdpBytes, m);
        List<String> notes = new ArrayList<>();
        notes.add("m is computed from Eq. 1; the paper's Sec. 5.2 example says 'tens-of-thousands accelerators,"
                + " slowdown no more than 2: m >= (Phi^-1(1-10^-5)/(2-1))^2 ~ 25', but (Phi^-1(1-10^-5))^2 = 18.19,"
                + " so Eq. 1 gives m = 19 (25 corresponds to Phi^-1 = 5, i.e. N ~ 3.5 million by Table 3);"
                + " the paper's 10^9-node example (m ~ 36) agrees with Eq. 1");
        notes.add("Eq. 1 approximates the busiest of N egress ports, Binomial(m*N, 1/N)/m, by a normal"
                + " distribution (Sec. 4.1); it is optimistic for small m");
        if (z == 0) {
            notes.add("N = 2 gives Phi^-1(1/2) = 0: Eq. 1 predicts no slowdown for any m");
        }
        if (flowlet == null) {
            notes.add("give --bdp-bytes to get the flowlet size S = 4 * BDP / m (Sec. 5.2)");
        }
        return new ParaletPlan(nodes, slowdown, z, m, predicted, bdpBytes, flowlet, notes);
    }

    private static void checkNodes(long nodes) {
        if (nodes < 2) {
            throw new BadInputException("--nodes must be an integer >= 2 (number of GPU nodes N in Eq. 1); got " + nodes);
        }
    }

    private static void checkSlowdown(double slowdown) {
        if (!(slowdown > 1) || Double.isInfinite(slowdown)) {
            throw new BadInputException("--slowdown must be a finite number > 1 (largest acceptable predicted slowdown,"
                    + " Eq. 1 is always >= 1); got " + PlanRendering.num(slowdown));
        }
    }

    /** Eq. 1 at m - 1 (the m that just misses the target), or NaN when m = 1. */
    public double predictedAtMMinusOne() {
        return m > 1 ? 1 + z / Math.sqrt(m - 1) : Double.NaN;
    }

    @Override
    public String kind() {
        return "paralet";
    }

    @Override
    public List<String> warnings() {
        return List.of();
    }

    /** CSV columns of {@code --format csv}. */
    public static final List<String> CSV_COLUMNS = List.of("m", "nodes", "slowdown", "z", "predicted_slowdown",
            "bdp_bytes", "flowlet_bytes");

    @Override
    public String render(PlanFormat format) {
        return switch (format) {
            case TEXT -> {
                StringBuilder sb = new StringBuilder();
                sb.append("lbsim plan paralet (").append(SOURCE).append(")\n");
                sb.append("Eq. 1: slowdown = 1 + Phi^-1(1 - 1/N) / sqrt(m); m = smallest integer with slowdown <= X\n");
                sb.append("nodes N: ").append(nodes).append('\n');
                sb.append("target slowdown X: ").append(PlanRendering.num(slowdownTarget)).append('\n');
                sb.append("z = Phi^-1(1 - 1/N): ").append(PlanRendering.num(z)).append('\n');
                sb.append("m: ").append(m).append('\n');
                sb.append("predicted slowdown at m: ").append(PlanRendering.num(predicted)).append('\n');
                if (m > 1) {
                    sb.append("predicted slowdown at m-1: ").append(PlanRendering.num(predictedAtMMinusOne()))
                            .append('\n');
                }
                if (bdpBytes != null) {
                    sb.append("BDP bytes: ").append(bdpBytes).append('\n');
                    sb.append("flowlet size S = ceil(4 * BDP / m) bytes: ").append(flowletBytes).append('\n');
                }
                PlanRendering.appendNotes(sb, notes);
                yield sb.toString();
            }
            case JSON -> {
                ObjectNode root = PlanRendering.root(kind(), SOURCE);
                root.put("nodes", nodes);
                root.put("slowdown", slowdownTarget);
                root.put("z", z);
                root.put("m", m);
                root.put("predicted_slowdown", predicted);
                if (m > 1) {
                    root.put("predicted_slowdown_m_minus_1", predictedAtMMinusOne());
                } else {
                    root.putNull("predicted_slowdown_m_minus_1");
                }
                root.put("bdp_bytes", bdpBytes);
                root.put("flowlet_bytes", flowletBytes);
                PlanRendering.putStrings(root, "warnings", warnings());
                PlanRendering.putStrings(root, "notes", notes);
                yield PlanRendering.json(root);
            }
            case CSV -> PlanRendering.csv(CSV_COLUMNS, List.of(List.of(Long.toString(m), Long.toString(nodes),
                    PlanRendering.num(slowdownTarget), PlanRendering.num(z), PlanRendering.num(predicted),
                    bdpBytes == null ? "" : bdpBytes.toString(), flowletBytes == null ? "" : flowletBytes.toString())));
        };
    }
}
