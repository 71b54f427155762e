package lbsim.cli;

import java.util.ArrayList;
import java.util.List;
import lbsim.experiment.FailureSpec;
import lbsim.experiment.Scenario;
import lbsim.plan.EtherealPlan;
import lbsim.topology.PathControl;
import lbsim.topology.Topology;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@code plan ethereal} takes from a scenario beyond its fabric and flows: links down from
 * t = 0 (left out of the paths), and warnings for what the plan cannot follow (later or partial
 * failures, unequal rates of equal-cost next hops), so that nothing in the file is ignored silently.
 */
final class EtherealPlanContext {
    private EtherealPlanContext() {}

    static EtherealPlan.Context of(Scenario sc, Topology topo, List<String> overrides) {
        return of(sc, topo, overrides, false);
    }

    /** {@code fromRun}: the plan is recorded from a run of the scenario, which simulates its later failures. */
    static EtherealPlan.Context of(Scenario sc, Topology topo, List<String> overrides, boolean fromRun) {
        List<String> warnings = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean[] down = new boolean[topo.linkCount()];
        int downLinks = 0;
        for (int i = 0; i < sc.failures().size(); i++) {
            FailureSpec f = sc.failures().get(i);
            int[] links = f.links(topo, sc.file(), i);
            if (f.kind().equals("down") && f.atUs() == 0) {
                for (int l : links) if (!down[l]) {
                    down[l] = true;
                    downLinks++;
                }
            } else if (fromRun) {
                warnings.add("failures[" + i + "] (" + f.kind() + " of '" + f.link() + "' at " + f.atUs() + " us) happens in the"
                        + " planning run as in a run: batches before it do not avoid it, later ones only paths the scheme has marked"
                        + " bad (timeouts)");
            } else {
                warnings.add("failures[" + i + "] (" + f.kind() + " of '" + f.link() + "' at " + f.atUs() + " us) is ignored:"
                        + " the plan is for t = 0 and leaves out only links down from then; other paths are taken as good");
            }
        }
        if (downLinks > 0) {
            notes.add(downLinks + (downLinks == 1 ? " link" : " links") + " down from t = 0 (failures with kind down, at_us 0) are left out of the paths;"
                    + " a run's Ethereal learns of them only by timeouts, so it may use them first");
        }
        if (sc.workload().qpsPerFlow() > 0) {
            warnings.add("workload.qps_per_connection (" + sc.workload().qpsPerFlow() + ") is not read: Ethereal decides its"
                    + " own QPs (" + lbsim.lb.Schemes.ownQpCount("ethereal") + "); a run with scheme ethereal refuses it");
        }
        String unequal = unequalNextHops(topo);
        if (unequal != null) {
            warnings.add("topology.link_overrides: " + unequal + "; the plan splits bytes equally over equal-cost paths,"
                    + " ignoring their rates (Ethereal assumes a symmetric fabric)");
        }
        return new EtherealPlan.Context(inputs(sc, overrides), warnings, notes, downLinks > 0 ? down : null, pathControl(sc));
    }

    /** The scenario's {@code load_balancer.path_control} when its scheme is ethereal, else the scheme's default (port). */
    static PathControl pathControl(Scenario sc) {
        if (!sc.scheme().equals("ethereal")) return PathControl.PORT;
        JsonNode v = sc.resolved().path("load_balancer").get("path_control");
        return v == null || !v.isString() ? PathControl.PORT : PathControl.of(v.asString());
    }

    /** The first switch whose equal-cost next hops toward one destination have different rates, described; null if none. */
    private static String unequalNextHops(Topology topo) {
        for (int node = topo.hostCount(); node < topo.nodeCount(); node++) {
            for (int[] group : topo.routing().groupsOf(node)) {
                long min = Long.MAX_VALUE, max = 0;
                for (int local : group) {
                    long r = topo.portRateBps(topo.firstPort(node) + local);
                    min = Math.min(min, r);
                    max = Math.max(max, r);
                }
                if (group.length > 1 && min != max) {
                    return topo.nodeName(node) + "'s equal-cost next hops toward one destination run at " + min / 1e9 + " to "
                            + max / 1e9 + " Gbps";
                }
            }
        }
        return null;
    }

    /** JSON {@code inputs}: the scenario file, its seed and --set overrides, and the resolved sections the plan reads. */
    private static ObjectNode inputs(Scenario sc, List<String> overrides) {
        ObjectNode in = JsonNodeFactory.instance.objectNode();
        in.put("scenario", sc.file());
        in.put("seed", sc.seed());
        ArrayNode set = in.putArray("set");
        overrides.forEach(set::add);
        for (String section : List.of("topology", "workload", "failures")) {
            if (sc.resolved().has(section)) in.set(section, sc.resolved().get(section));
        }
        in.put("path_control", pathControl(sc).key());
        return in;
    }
}
