package lbsim.workload.collective;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;

/** Structural checks every generated collective must pass, and label parsing for step-level checks. */
final class GraphChecks {
    private static final Pattern LABEL = Pattern.compile(" c(\\d+) (\\S+(?: \\S+)?) k(\\d+)");

    private GraphChecks() {}

    static List<FlowSpec> flowsOf(FlowGraph g, CollectiveHandle h) {
        return g.flows().subList(h.firstFlow(), h.endFlow());
    }

    /** Dependencies point backwards, no self flows, all flows in the group, and every flow leads to a last flow. */
    static void assertWellFormed(FlowGraph g, CollectiveHandle h) {
        List<FlowSpec> flows = flowsOf(g, h);
        Set<Integer> dependedOn = new HashSet<>();
        for (FlowSpec f : flows) {
            assertThat(f.src()).as("flow %d src != dst", f.id()).isNotEqualTo(f.dst());
            assertThat(f.sizeBytes()).isPositive();
            assertThat(f.group()).isEqualTo(h.group());
            assertThat(f.afterCount()).isEqualTo(f.after().length);
            for (int d : f.after()) {
                assertThat(d).as("flow %d depends on earlier flow", f.id()).isLessThan(f.id());
                if (d >= h.firstFlow()) dependedOn.add(d);
            }
        }
        Set<Integer> last = new HashSet<>();
        for (int id : h.lastFlows()) last.add(id);
        for (FlowSpec f : flows) {
            assertThat(last.contains(f.id())).as("flow %d is last iff nothing in the collective waits for it", f.id())
                    .isEqualTo(!dependedOn.contains(f.id()));
        }
        boolean[] reaches = new boolean[flows.size()];
        for (int i = flows.size() - 1; i >= 0; i--) {
            FlowSpec f = flows.get(i);
            if (last.contains(f.id())) reaches[i] = true;
            if (reaches[i]) for (int d : f.after()) if (d >= h.firstFlow()) reaches[d - h.firstFlow()] = true;
        }
        for (int i = 0; i < reaches.length; i++) assertThat(reaches[i]).as("flow %d precedes a last flow", h.firstFlow() + i).isTrue();
    }

    /** Delay before a flow may start: its gap after dependencies, or its start time when it has none. */
    static long delay(FlowSpec f) {
        return f.after().length == 0 ? f.startPs() : f.gapPs();
    }

    /** Step name of a flow label ("s3", "pre", "t0 up", ...). */
    static String step(FlowSpec f) {
        Matcher m = LABEL.matcher(f.label());
        if (!m.find()) throw new AssertionError("unparsable label " + f.label());
        return m.group(2);
    }

    static int channel(FlowSpec f) {
        Matcher m = LABEL.matcher(f.label());
        if (!m.find()) throw new AssertionError("unparsable label " + f.label());
        return Integer.parseInt(m.group(1));
    }

    static int slice(FlowSpec f) {
        Matcher m = LABEL.matcher(f.label());
        if (!m.find()) throw new AssertionError("unparsable label " + f.label());
        return Integer.parseInt(m.group(3));
    }

    static List<FlowSpec> withStep(FlowGraph g, CollectiveHandle h, String step) {
        List<FlowSpec> out = new ArrayList<>();
        for (FlowSpec f : flowsOf(g, h)) if (step(f).equals(step)) out.add(f);
        return out;
    }
}
