package lbsim.cli;

import java.nio.file.Path;
import lbsim.experiment.FabricFile;
import lbsim.experiment.Scenario;
import lbsim.experiment.ScenarioLoader;
import lbsim.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lbsim topology export SCENARIO [-o FILE]}: the scenario's fabric, link by link, as a topology file. */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Write the scenario's fabric (any topology kind, link_overrides applied) as a topology file with the same"
                + " node and link names: run from it (topology: {kind: file, file: FILE} with the same buffer and MTU keys), the"
                + " scenario gives identical results. --set overrides any scenario key first.")
public final class TopologyExportCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario YAML whose topology to write.")
    Path file;

    @Option(names = {"-o", "--out"}, paramLabel = "FILE", description = "Topology file to write (default: standard output).")
    Path out;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a scenario key first, e.g. --set topology.leaves=4 (repeatable).")
    java.util.List<String> overrides = new java.util.ArrayList<>();

    @Override
    public void run() {
        Scenario sc = ScenarioLoader.load(file, overrides, null);
        Topology t = sc.topology().build(sc.file());
        String header = "lbsim topology file (docs/inputs.md): " + t.hostCount() + " hosts, " + (t.nodeCount() - t.hostCount())
                + " switches, " + t.linkCount() + " links\n"
                + "exported from " + file + " (topology.kind: " + sc.topology().kind() + ") by lbsim topology export\n"
                + "use it as topology: {kind: file, file: THIS_FILE}; switch_buffer_bytes, port_buffer_bytes and mtu_bytes\n"
                + "stay scenario keys (this scenario: " + sc.topology().switchBufferBytes() + ", " + sc.topology().portBufferBytes()
                + ", " + sc.topology().mtuBytes() + ")";
        TopologyCommand.write(spec, FabricFile.write(t, header), out);
    }
}
