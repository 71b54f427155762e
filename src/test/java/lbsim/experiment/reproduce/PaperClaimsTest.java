package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lbsim.experiment.SweepSpec;
import org.junit.jupiter.api.Test;

/**
 * Per paper, the claims its presets cover (issue 27 item 2): every cell takes its numbers from grid points the
 * paper-scale sweep runs, a claim without a number is a comparison with a baseline (so the verdict rule can judge its
 * direction), and docs/experiments.md's "Claims covered" table for the paper names every cell and only real cells.
 */
class PaperClaimsTest {
    private static final Path DOC = Path.of("docs/experiments.md");

    @Test
    void etherealCellsSelectPaperScalePointsAndTheClaimsTableNamesEveryCell() throws IOException {
        check("ethereal-", "Ethereal");
    }

    @Test
    void paraletCellsSelectPaperScalePointsAndTheClaimsTableNamesEveryCell() throws IOException {
        check("paralet-", "ParaLet");
    }

    @Test
    void hopperCellsSelectPaperScalePointsAndTheClaimsTableNamesEveryCell() throws IOException {
        check("hopper-", "Hopper");
    }

    @Test
    void mcclureCellsSelectPaperScalePointsAndTheClaimsTableNamesEveryCell() throws IOException {
        check("mcclure-", "McClure");
    }

    @Test
    void ctcclCellsSelectPaperScalePointsAndTheClaimsTableNamesEveryCell() throws IOException {
        check("ctccl-", "CTCCL");
    }

    private static void check(String prefix, String paper) throws IOException {
        List<Preset> presets = Presets.all().stream().filter(p -> p.id().startsWith(prefix)).toList();
        assertThat(presets).as(prefix).isNotEmpty();
        String table = claimsSection(paper);
        Set<String> cells = new HashSet<>();
        for (Preset p : presets) {
            SweepSpec s = Reproduce.spec(p, "paper", List.of());
            for (Cell c : p.cells()) {
                String id = p.id() + ": " + c.name();
                assertThat(cells.add(id)).as("cell names are unique within a preset: %s", id).isTrue();
                for (Map<String, String> pt : c.points(c.select())) assertThat(hasPoint(s, pt)).as("%s at %s", id, pt).isTrue();
                for (Map<String, String> b : c.baselines()) {
                    for (Map<String, String> pt : c.points(b)) assertThat(hasPoint(s, pt)).as("%s baseline %s", id, pt).isTrue();
                }
                if (c.isQualitative()) {
                    assertThat(c.kind()).as("%s: a claim without a number compares with a baseline", id).isNotEqualTo(Cell.Kind.VALUE);
                    assertThat(c.hasBaseline()).as(id).isTrue();
                    assertThat(Verdict.reference(c.kind(), c.metricOr(p.metric()))).as(id).isNotNaN();
                }
                assertThat(table).as("docs/experiments.md, Claims covered: %s, names cell `%s`", paper, id).contains("`" + id + "`");
            }
        }
        // and names no cell that does not exist (a renamed or removed cell)
        Matcher m = Pattern.compile("`(" + Pattern.quote(prefix) + "[a-z0-9-]+: [^`]+)`").matcher(table);
        while (m.find()) assertThat(cells).as("docs/experiments.md, Claims covered: %s names a cell that exists", paper).contains(m.group(1));
    }

    /** The text of docs/experiments.md's "### Claims covered: PAPER" subsection. */
    private static String claimsSection(String paper) throws IOException {
        String doc = Files.readString(DOC);
        String heading = "### Claims covered: " + paper + "\n";
        int from = doc.indexOf(heading);
        assertThat(from).as("docs/experiments.md has a section '%s'", heading.strip()).isGreaterThanOrEqualTo(0);
        int to = doc.length();
        for (String next : List.of("\n### ", "\n## ")) {
            int i = doc.indexOf(next, from + heading.length());
            if (i >= 0) to = Math.min(to, i);
        }
        return doc.substring(from, to);
    }

    private static boolean hasPoint(SweepSpec s, Map<String, String> select) {
        List<String> cols = s.columns();
        if (!select.keySet().equals(new HashSet<>(cols))) return false;
        for (SweepSpec.Run r : s.runs()) {
            boolean ok = true;
            for (int i = 0; ok && i < cols.size(); i++) ok = select.get(cols.get(i)).equals(r.labels().get(i));
            if (ok) return true;
        }
        return false;
    }
}
