package lbsim.lb;

import java.util.function.Consumer;
import lbsim.experiment.Runner;
import lbsim.experiment.Scenario;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Packet;
import lbsim.net.Switch;

/** Test helper: runs a scenario with every switch strategy wrapped so each decision can be inspected. */
final class Observed {
    /**
     * One forwarding decision: the switch, the packet, the candidates, their egress bytes and their
     * adaptive-routing loads ({@link Switch#arLoad}) before, the choice.
     */
    record Decision(Switch sw, Packet p, int[] candidates, long[] loads, long[] arLoads, int chosen, long nowPs) {}

    private Observed() {}

    static RunResult run(String yaml, Consumer<Decision> check, String... overrides) {
        Scenario sc = Scenarios.parse(yaml, overrides);
        Scenario wrapped = sc.withSchemeFactory(ctx -> {
                    Scheme s = sc.schemeFactory().apply(ctx);
                    return new Scheme(s.name(), s.host(), sw -> wrap(s.switches().apply(sw), ctx, check));
                });
        return Runner.run(wrapped, Runner.Progress.NONE);
    }

    private static ForwardingStrategy wrap(ForwardingStrategy inner, SchemeContext ctx, Consumer<Decision> check) {
        return new ForwardingStrategy() {
            @Override
            public int choose(Switch sw, Packet p, int[] candidates) {
                long[] loads = new long[candidates.length];
                long[] arLoads = new long[candidates.length];
                for (int i = 0; i < loads.length; i++) {
                    loads[i] = sw.egressBytes(candidates[i]);
                    arLoads[i] = sw.arLoad(candidates[i]);
                }
                int out = inner.choose(sw, p, candidates);
                check.accept(new Decision(sw, p, candidates, loads, arLoads, out, ctx.sim().now()));
                return out;
            }

            @Override
            public boolean observesForwarding() {
                return inner.observesForwarding();
            }

            @Override
            public void onForward(Switch sw, Packet p, int in, int out) {
                inner.onForward(sw, p, in, out);
            }

            @Override
            public boolean intercept(Switch sw, Packet p, int in) {
                return inner.intercept(sw, p, in);
            }

            @Override
            public void reportCounters(java.util.Map<String, Long> into) {
                inner.reportCounters(into);
            }
        };
    }
}
