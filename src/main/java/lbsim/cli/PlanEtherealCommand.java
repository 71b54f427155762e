package lbsim.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import lbsim.engine.Simulation;
import lbsim.BadInputException;
import lbsim.experiment.Scenario;
import lbsim.experiment.ScenarioLoader;
import lbsim.experiment.Runner;
import lbsim.experiment.Section;
import lbsim.lb.Ethereal;
import lbsim.lb.Scheme;
import lbsim.lb.SchemeContext;
import lbsim.lb.Schemes;
import lbsim.metrics.RunResult;
import lbsim.plan.EtherealPlan;
import lbsim.topology.Topology;
import lbsim.transport.FlowSpec;
import tools.jackson.databind.node.JsonNodeFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lbsim plan ethereal SCENARIO}: per-flow path IDs, splits and QP counts for a scenario's workload. */
@Command(name = "ethereal", mixinStandardHelpOptions = true,
        description = "Ethereal (Addanki et al., Sec. 3): path IDs, subflow splits and QPs per NIC for the scenario's"
                + " fabric and workload (e.g. a collective); --set overrides any scenario key.")
public final class PlanEtherealCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Mixin
    PlanFormatOption format;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario YAML giving topology and workload.")
    Path file;

    @Mixin
    ScenarioOptions options = new ScenarioOptions();

    @Override
    public void run() {
        Scenario sc = ScenarioLoader.load(file, options.overrides, options.seed);
        for (String w : sc.warnings()) System.err.println("lbsim: warning: " + w);   // keys its settings do not read, as run says
        Topology topo = sc.topology().build(sc.file());
        String problem = Ethereal.pathIdProblem(topo, EtherealPlanContext.pathControl(sc));
        if (problem != null) throw new BadInputException(sc.file() + ": plan ethereal: " + problem);
        PlanCommand.print(spec, plan(sc, topo, options.overrides), format.format());
    }

    /**
     * The plan for a scenario: computed statically when every flow starts at its start time (the
     * batches are then known), else recorded from a run of the scenario with the ethereal scheme,
     * since flows that wait on others start when the network lets them (Ethereal batches by the
     * instant flows start, Sec. 3.1).
     */
    public static EtherealPlan plan(Scenario sc, Topology topo, List<String> overrides) {
        // the same workload stream as a run, so random placements match `lbsim run`
        var graph = sc.workload().build(topo, new Simulation(sc.seed()).random().stream("workload"));
        boolean dependent = !graph.flows().stream().allMatch(FlowSpec::independent);
        EtherealPlan.Context context = EtherealPlanContext.of(sc, topo, overrides, dependent);
        if (!dependent) return EtherealPlan.compute(topo, graph, context);
        Function<SchemeContext, Scheme> base = sc.scheme().equals("ethereal") ? sc.schemeFactory()
                : Schemes.bind("ethereal", new Section(sc.file(), "load_balancer", JsonNodeFactory.instance.objectNode()));
        List<EtherealPlan.Recorded> recorded = new ArrayList<>();
        Function<SchemeContext, Scheme> recording = c -> {
            Scheme s = base.apply(c);
            Ethereal e = (Ethereal) s.host();
            e.recordTo((batch, flow, qp, bytes, pathId) -> recorded.add(new EtherealPlan.Recorded(batch, flow, qp, bytes, pathId)));
            e.avoidFromStart(context.linkDown());
            return s;
        };
        RunResult r = Runner.run(sc.withSchemeFactory(recording), Runner.Progress.NONE);
        List<String> warnings = new ArrayList<>();
        long planned = recorded.stream().mapToInt(x -> x.flow().id()).distinct().count();
        if (planned < graph.size()) {
            warnings.add((graph.size() - planned) + " of " + graph.size() + " flows did not start in the planning run ("
                    + (r.completed() ? "" : "stopped at max_time_ms=" + sc.maxTimeMs() + "; ") + "they wait on flows that were not"
                    + " delivered) and are not in the plan");
        }
        return EtherealPlan.fromRun(topo, graph.size(), recorded, context, warnings);
    }
}
