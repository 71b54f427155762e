package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import lbsim.metrics.StepTimeline;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Gantt chart of the collectives' steps (steps.csv) in the run report: rows, merged bars, events. */
class StepGanttTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void headless() {
        Headless.ensure();
    }

    private static final String RUN = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4, link_gbps: 100}
            transport: {timeout_us: 100}
            workload: {kind: collective, op: all-reduce, algorithm: ring, size_bytes: 1048576}
            failures: [{at_us: 20, link: "leaf0-spine1", kind: down, detect_ms: 0.05}]
            metrics: {steps: true}
            """;

    /** One row per rank, one bar per step, each exactly its steps.csv row's span. */
    @Test
    void aSmallRunHasARowPerRankAndABarPerStep() {
        RunResult r = Scenarios.run(RUN);
        StepGantt.Layout lay = StepGantt.layout(r.steps().rows(), r.simTimeNs() / 1e3);
        assertThat(lay.bands()).hasSize(8).first().extracting(StepGantt.Band::label).isEqualTo("rank 0");
        assertThat(lay.stepsPerBar()).isEqualTo(1);
        for (StepTimeline.Row row : r.steps().rows()) {
            StepGantt.Band b = lay.bands().get(row.rank());
            assertThat(b.startUs()[row.step()]).isEqualTo(row.startNs() / 1e3);
            assertThat(b.endUs()[row.step()]).isEqualTo(row.endNs() / 1e3);
        }
    }

    /**
     * Property over random timelines of many collectives, ranks and steps: at most 64 rows and 96 bars
     * a row, and every step of every rank lies inside the bar that merges it (none is lost).
     */
    @Test
    void mergedRowsAndBarsCoverEveryStep() {
        Random rnd = new Random(5);
        for (int trial = 0; trial < 30; trial++) {
            // up to 150 collectives, 300 ranks or 400 steps, about 60 000 rows at most
            int groups = 1 + rnd.nextInt(trial < 10 ? 2 : 150), ranks = 2 + rnd.nextInt(300 / groups + 1);
            int steps = 1 + rnd.nextInt(Math.min(400, 60_000 / (groups * ranks) + 1));
            List<StepTimeline.Row> rows = new ArrayList<>();
            for (int g = 0; g < groups; g++) {
                for (int s = 0; s < steps; s++) {
                    for (int k = 0; k < ranks; k++) {
                        if (rnd.nextInt(10) == 0) continue;   // a rank without fabric flows in that step
                        double start = rnd.nextDouble() * 1e6, end = rnd.nextInt(20) == 0 ? Double.NaN : start + rnd.nextDouble() * 1e5;
                        rows.add(new StepTimeline.Row(g, "c", s, "s" + s, k, k, start, end, 1, 1));
                    }
                }
            }
            StepGantt.Layout lay = StepGantt.layout(rows, 0);
            assertThat(lay.bands().size()).isLessThanOrEqualTo(StepGantt.MAX_ROWS);
            for (StepGantt.Band b : lay.bands()) assertThat(b.startUs().length).isLessThanOrEqualTo(StepGantt.MAX_STEPS);
            double latest = rows.stream().mapToDouble(x -> Double.isNaN(x.endNs()) ? x.startNs() : x.endNs()).max().orElseThrow() / 1e3;
            assertThat(lay.endUs()).isEqualTo(latest);
            for (StepTimeline.Row row : rows) {
                int k = row.step() / lay.stepsPerBar();
                boolean inside = lay.bands().stream().anyMatch(b -> b.startUs()[k] <= row.startNs() / 1e3
                        && b.endUs()[k] >= (Double.isNaN(row.endNs()) ? lay.endUs() : row.endNs() / 1e3));
                assertThat(inside).as("trial %d: group %d step %d rank %d inside a bar", trial, row.group(), row.step(), row.rank()).isTrue();
            }
        }
    }

    /** A run stopped at 0 with its only step started and unfinished still draws (an axis of 1 ns, not a division by zero). */
    @Test
    void aTimelineAtTimeZeroDraws() {
        List<StepTimeline.Row> rows = List.of(new StepTimeline.Row(0, "c", 0, "s0", 0, 0, 0, Double.NaN, 1, 1));
        ChartFiles f = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                () -> StepGantt.draw("t", rows, List.of(), 0, tmp, "zero"));
        assertThat(f.png()).exists();
    }

    @Test
    void theRunReportDrawsTheStepsWithTheFailure() throws Exception {
        RunResult r = Scenarios.run(RUN);
        Path html = RunReport.write(r, tmp);
        assertThat(Files.readString(html)).contains("plots/steps-gantt.png", "Collective steps over time", "link-down leaf0-spine1 at 20.0 us");
        ReportCheck.assertSelfContained(html);
        Path svg = tmp.resolve("plots/steps-gantt.svg");
        assertThat(tmp.resolve("plots/steps-gantt.pdf")).exists();
        assertThat(VectorTextTest.contents(VectorTextTest.svgTexts(svg)))
                .contains("Collective steps per rank", "rank 0", "rank 7", "step", "simulated time (us)", "link-down leaf0-spine1",
                        "link-detected leaf0-spine1");
        assertThat(Files.readString(svg)).contains("stroke:rgb(153,0,0)");   // the events' dashed lines

        RunResult without = Scenarios.run(RUN.replace("metrics: {steps: true}\n", ""));
        RunReport.write(without, tmp.resolve("off"));
        assertThat(tmp.resolve("off/plots/steps-gantt.png")).doesNotExist();
    }

    /** Each text of an SVG chart with where it is drawn: "text @ transform" (the transform of the group holding it). */
    private static List<String> placedTexts(Path svg) throws Exception {
        return VectorTextTest.svgTexts(svg).stream()
                .map(t -> t.getTextContent() + " @ " + ((org.w3c.dom.Element) t.getParentNode()).getAttribute("transform")).toList();
    }

    /**
     * compare with metrics.steps: each scheme's section holds its own Gantt chart, and every chart has
     * the same time axis (the longest run's), so two schemes with different completion times read alike.
     */
    @Test
    void theCompareReportDrawsEachSchemesStepsOnOneTimeAxis() throws Exception {
        RunResult ecmp = Scenarios.run(RUN), spray = Scenarios.run(RUN, "load_balancer.scheme=spray-adaptive");
        assertThat(spray.simTimeNs()).as("the schemes take different times").isNotEqualTo(ecmp.simTimeNs());
        Path html = CompareReport.write(List.of(ecmp, spray), tmp);
        String page = Files.readString(html);
        int first = page.indexOf("\">ecmp</h3>"), second = page.indexOf("\">spray-adaptive</h3>");
        assertThat(first).isPositive().isLessThan(second);
        assertThat(page.indexOf("plots/steps-gantt-ecmp.png")).isBetween(first, second);
        assertThat(page.indexOf("plots/steps-gantt-spray-adaptive.png")).isGreaterThan(second);
        assertThat(page).contains("every scheme's on the same time axis", "Dashed lines: this scheme's events (events.csv): link-down leaf0-spine1 at 20.0 us");
        ReportCheck.assertSelfContained(html);
        List<String> a = placedTexts(tmp.resolve("plots/steps-gantt-ecmp.svg"));
        List<String> b = placedTexts(tmp.resolve("plots/steps-gantt-spray-adaptive.svg"));
        assertThat(a.get(0)).startsWith("ecmp: collective steps per rank @");
        assertThat(b.get(0)).startsWith("spray-adaptive: collective steps per rank @");
        assertThat(a).anyMatch(t -> t.startsWith("rank 7 @")).anyMatch(t -> t.startsWith("link-detected leaf0-spine1 @"));
        // apart from the title, the same texts at the same places: the same ranks, steps, time ticks, and events at the same x
        assertThat(a.subList(1, a.size())).isEqualTo(b.subList(1, b.size()));
        // drawn on its own run's end instead, the shorter run's axis differs: the shared axis is not a coincidence
        RunResult shorter = ecmp.simTimeNs() < spray.simTimeNs() ? ecmp : spray;
        ChartFiles own = StepGantt.draw("own", shorter.steps().rows(), FlowMetrics.eventMarkers(shorter.eventLog()), shorter.simTimeNs() / 1e3, tmp.resolve("own"), "g");
        List<String> ownTexts = placedTexts(own.svg());
        assertThat(ownTexts.subList(1, ownTexts.size())).isNotEqualTo(a.subList(1, a.size()));
        // without metrics.steps there is no Gantt chart on the compare page
        Path off = CompareReport.write(List.of(Scenarios.run(RUN.replace("metrics: {steps: true}\n", ""))), tmp.resolve("off"));
        assertThat(Files.readString(off)).doesNotContain("steps-gantt", "collective steps");
    }
}
