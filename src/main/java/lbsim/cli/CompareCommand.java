package lbsim.cli;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.LineDelimiter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import lbsim.experiment.BadInputException;
import lbsim.experiment.Runner;
import lbsim.experiment.Scenario;
import lbsim.experiment.ScenarioLoader;
import lbsim.lb.Schemes;
import lbsim.metrics.ResultWriter;
import lbsim.metrics.RunResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Run one scenario under several schemes; prints a table, writes compare.csv, report.html (charts in plots/) and one run folder per scheme.")
public final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE",
            description = "Scenario YAML (default: the embedded 128-GPU leaf-spine all-reduce).")
    Path file;

    @Mixin
    ScenarioOptions options = new ScenarioOptions();

    @Option(names = "--schemes", split = ",", description = "Schemes to compare (default: every available scheme).")
    List<String> schemes;

    @Option(names = "--out", description = "Output directory (default: out/compare-<scenario name>).")
    Path out;

    @Override
    public Integer call() throws Exception {
        List<String> names = schemes == null ? Schemes.available() : schemes;
        for (String s : names) {
            if (!Schemes.isAvailable(s)) {
                throw new BadInputException("--schemes: '" + s + "' is not a scheme; allowed values: "
                        + String.join(", ", Schemes.available()));
            }
        }
        List<RunResult> results = new ArrayList<>();
        Path dir = null;
        for (String s : names) {
            List<String> ov = new ArrayList<>(options.overrides);
            ov.add("load_balancer.scheme=" + s);
            Scenario sc = file == null ? ScenarioLoader.loadResource("default-compare.yaml", ov, options.seed)
                    : ScenarioLoader.load(file, ov, options.seed);
            if (dir == null) dir = out != null ? out : Path.of("out", "compare-" + sc.name());
            System.err.println("running " + sc.name() + " with " + s + " ...");
            // later schemes expect about the simulated time the first one needed
            Runner.Progress progress = ProgressBar.forTerminal(s, results.isEmpty() ? 0 : (long) (results.get(0).simTimeNs() * 1000));
            RunResult r = Runner.run(sc, progress);
            if (progress instanceof ProgressBar pb) pb.clear();
            ResultWriter.write(r, dir.resolve(s));
            results.add(r);
        }
        System.out.print(Tables.compare(results));
        writeCsv(results, dir.resolve("compare.csv"));
        Report.compare(results, dir);
        System.out.println("results in " + dir + " (compare.csv, report.html)");
        return 0;
    }

    static void writeCsv(List<RunResult> results, Path path) throws java.io.IOException {
        try (CsvWriter csv = CsvWriter.builder().lineDelimiter(LineDelimiter.LF).build(path)) {
            csv.writeRecord("scheme", "seed", "completed", "cct_ns", "ideal_cct_ns", "normalised", "flows.count", "flows.fct_ns.mean",
                    "flows.fct_ns.p50", "flows.fct_ns.p99", "flows.fct_ns.max", "packets.sent", "packets.delivered",
                    "packets.dropped", "packets.retransmitted", "packets.ecn_marked", "packets.out_of_order", "pfc_pauses",
                    "max_qps_per_nic", "events", "wall_ms");
            for (RunResult r : results) {
                csv.writeRecord(r.scheme(), Long.toString(r.seed()), Boolean.toString(r.completed()),
                        r.cctNs() == null ? "" : Long.toString(r.cctNs()), Long.toString(r.idealCctNs()),
                        String.format(Locale.ROOT, "%.4f", r.normalised()), Integer.toString(r.flows().size()),
                        String.format(Locale.ROOT, "%.1f", r.fct().mean()), Long.toString(r.fct().p50()), Long.toString(r.fct().p99()),
                        Long.toString(r.fct().max()), Long.toString(r.packetsSent()), Long.toString(r.packetsDelivered()),
                        Long.toString(r.packetsDropped()), Long.toString(r.packetsRetransmitted()), Long.toString(r.ecnMarked()),
                        Long.toString(r.outOfOrderPackets()), Long.toString(r.pfcPauses()), Integer.toString(r.maxQpsPerNic()),
                        Long.toString(r.events()), Long.toString(r.wallMs()));
            }
        }
    }
}
