package lbsim.cli;

import java.nio.file.Path;
import lbsim.BadInputException;
import lbsim.experiment.FabricFile;
import lbsim.experiment.SlurmTopology;
import lbsim.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lbsim topology import-slurm FILE [-o OUT]}: a topology file from Slurm's topology.conf (tree plugin). */
@Command(name = "import-slurm", mixinStandardHelpOptions = true,
        description = "Read Slurm's topology.conf (SwitchName=... Nodes=HOSTLIST / Switches=HOSTLIST lines) and write a topology"
                + " file: every node a host under its switch, every parent-child pair of switches linked. Slurm records no"
                + " rates or latencies; the options give them.")
public final class TopologyImportSlurmCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "Slurm topology.conf.")
    Path file;

    @Option(names = {"-o", "--out"}, paramLabel = "OUT", description = "Topology file to write (default: standard output).")
    Path out;

    @Option(names = "--host-link-gbps", paramLabel = "G", defaultValue = "100",
            description = "Rate of every node-to-switch link in Gbit/s (default: ${DEFAULT-VALUE}).")
    double hostGbps;

    @Option(names = "--link-gbps", paramLabel = "G", defaultValue = "100",
            description = "Rate of every switch-to-switch link in Gbit/s (default: ${DEFAULT-VALUE}).")
    double linkGbps;

    @Option(names = "--link-latency-ns", paramLabel = "NS", defaultValue = "1000",
            description = "Propagation delay of every link in ns (default: ${DEFAULT-VALUE}).")
    double latencyNs;

    @Option(names = "--parallel-links", paramLabel = "N", defaultValue = "1",
            description = "Links between each parent and child switch (default: ${DEFAULT-VALUE}).")
    int parallel;

    @Override
    public void run() {
        check(hostGbps >= 1e-3 && hostGbps <= 1e6, "--host-link-gbps", "1e-3..1e6", hostGbps);
        check(linkGbps >= 1e-3 && linkGbps <= 1e6, "--link-gbps", "1e-3..1e6", linkGbps);
        check(latencyNs >= 0 && latencyNs <= 1e9, "--link-latency-ns", "0..1e9", latencyNs);
        check(parallel >= 1 && parallel <= 4096, "--parallel-links", "1..4096", parallel);
        Topology t = SlurmTopology.read(file, new SlurmTopology.LinkOptions(hostGbps, linkGbps, latencyNs, parallel));
        String header = "lbsim topology file (docs/inputs.md): " + t.hostCount() + " hosts, " + (t.nodeCount() - t.hostCount())
                + " switches, " + t.linkCount() + " links\n"
                + "imported from Slurm " + file + " by lbsim topology import-slurm (Slurm records the hierarchy only):\n"
                + "node links " + num(hostGbps) + " Gbit/s, switch links " + num(linkGbps) + " Gbit/s x " + parallel + " per pair, "
                + num(latencyNs) + " ns each";
        TopologyCommand.write(spec, FabricFile.write(t, header), out);
    }

    private static String num(double x) {
        return java.math.BigDecimal.valueOf(x).stripTrailingZeros().toPlainString();
    }

    private static void check(boolean ok, String option, String range, double got) {
        if (!ok) throw new BadInputException(option + " must be in " + range + "; got " + got);
    }
}
