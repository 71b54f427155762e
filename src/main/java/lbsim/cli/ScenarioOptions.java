package lbsim.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Options shared by the commands that load a scenario. */
final class ScenarioOptions {
    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a scenario key, e.g. --set topology.leaves=4 (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--seed", description = "Run seed (overrides the scenario's seed).")
    Long seed;
}
