package lbsim.metrics.plot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lbsim.experiment.Scenarios;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.RunResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The topology drawing: one line per link, coloured by its busier direction, failed links dashed red, in the run report. */
class TopologyDrawingTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void headless() {
        Headless.ensure();
    }

    private static final String RUN = """
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
            workload: {kind: permutation, size_bytes: 100000}
            failures: [{at_us: 1, link: "leaf0-spine1", kind: down, detect_ms: 0.002}]
            """;

    @Test
    void oneEdgePerLinkWithItsBusierDirection() {
        RunResult r = Scenarios.run(RUN);
        List<TopologyDrawing.Edge> edges = TopologyDrawing.edges(r.links());
        assertThat(edges).hasSize(r.links().size() / 2);   // 4 host links and 4 fabric links, two directions each
        for (TopologyDrawing.Edge e : edges) {
            double busier = r.links().stream().filter(l -> (l.from().equals(e.a()) && l.to().equals(e.b())) || (l.from().equals(e.b()) && l.to().equals(e.a())))
                    .mapToDouble(LinkRecord::utilisation).max().orElseThrow();
            assertThat(e.utilisation()).isEqualTo(busier);
        }
        assertThat(edges.stream().filter(e -> !e.up())).extracting(e -> e.a() + "-" + e.b()).containsExactly("leaf0-spine1");
        // the busiest last, drawn on top
        for (int i = 1; i < edges.size(); i++) assertThat(edges.get(i).utilisation()).isGreaterThanOrEqualTo(edges.get(i - 1).utilisation());
    }

    @Test
    void runReportDrawsTheFabricWithTiersAFailedLinkAndAColourScale() throws Exception {
        RunResult r = Scenarios.run(RUN);
        Path html = RunReport.write(r, tmp);
        assertThat(Files.readString(html)).contains("plots/topology.png", "Fabric and load per link", "dashed red");
        ReportCheck.assertSelfContained(html);
        Path svg = tmp.resolve("plots/topology.svg");
        assertThat(VectorTextTest.contents(VectorTextTest.svgTexts(svg)))
                .contains("Fabric and load per link", "spine (2)", "leaf (2)", "h (4)", "leaf0", "spine1", "utilisation (%)");
        // the failed link, and only it, dashed red
        assertThat(java.util.regex.Pattern.compile("<line [^>]*stroke=\"#cc0000\"[^>]*stroke-dasharray=").matcher(Files.readString(svg)).results().count())
                .isEqualTo(1);
    }

    @Test
    void largeFabricsAreDrawnWithoutTheirHosts() {
        List<LinkRecord> links = new ArrayList<>();
        for (int h = 0; h < 300; h++) {
            links.add(new LinkRecord("h" + h + "-leaf0", "h" + h + "->leaf0", "h" + h, "leaf0", 400, 1, 0.5, 0, 0, 0, 0, 0, "up", Double.NaN));
        }
        links.add(new LinkRecord("leaf0-spine0", "leaf0->spine0", "leaf0", "spine0", 400, 1, 0.2, 0, 0, 0, 0, 0, "up", Double.NaN));
        assertThat(TopologyDrawing.hostsLeftOut(links)).isTrue();
        assertThat(TopologyDrawing.edges(links)).hasSize(1);
        assertThat(TopologyDrawing.hostsLeftOut(links.subList(0, 200))).isFalse();
    }
}
