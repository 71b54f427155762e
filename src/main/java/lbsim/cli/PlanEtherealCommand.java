package lbsim.cli;

import java.nio.file.Path;
import lbsim.engine.Simulation;
import lbsim.experiment.BadInputException;
import lbsim.experiment.Scenario;
import lbsim.experiment.ScenarioLoader;
import lbsim.lb.Ethereal;
import lbsim.plan.EtherealPlan;
import lbsim.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lbsim plan ethereal SCENARIO}: per-flow path IDs, splits and QP counts for a scenario's workload. */
@Command(name = "ethereal", mixinStandardHelpOptions = true,
        description = "Ethereal (papers/000 Sec. 3): path IDs, subflow splits and QPs per NIC for the scenario's"
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
        Topology topo = sc.topology().build(sc.file());
        String problem = Ethereal.pathIdProblem(topo);
        if (problem != null) throw new BadInputException(sc.file() + ": plan ethereal: " + problem);
        // the same workload stream as a run, so random placements match `lbsim run`
        var graph = sc.workload().build(topo, new Simulation(sc.seed()).random().stream("workload"));
        PlanCommand.print(spec, EtherealPlan.compute(topo, graph, EtherealPlanContext.of(sc, topo, options.overrides)),
                format.format());
    }
}
