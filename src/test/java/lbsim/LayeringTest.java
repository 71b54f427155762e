package lbsim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages follow the data flow, and a lower stage never names a higher one (by import or by a
 * fully qualified name): engine, topology, net, transport, lb, workload, metrics, plan, experiment,
 * cli. The root package (bad input, build facts, byte sizes) is below them all.
 */
class LayeringTest {
    static final List<String> ORDER = List.of("engine", "topology", "net", "transport", "lb", "workload", "metrics", "plan",
            "experiment", "cli");
    static final Path SOURCES = Path.of("src/main/java/lbsim");
    static final Pattern REFERENCE = Pattern.compile("\\blbsim\\.([a-z]+)\\.");
    /** Block and line comments: a comment may name a higher stage to say who uses a class. */
    static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    /** Each reference from a package to one above it, as "file: package". */
    static List<String> upwardReferences(Path root) throws IOException {
        List<String> out = new ArrayList<>();
        for (String pkg : ORDER) {
            Path dir = root.resolve(pkg);
            if (!Files.isDirectory(dir)) continue;
            int rank = ORDER.indexOf(pkg);
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = REFERENCE.matcher(COMMENT.matcher(Files.readString(f)).replaceAll(""));
                    while (m.find()) {
                        int to = ORDER.indexOf(m.group(1));
                        if (to > rank) out.add(root.relativize(f) + ": lbsim." + m.group(1));
                    }
                }
            }
        }
        return out;
    }

    @Test
    void noPackageNamesAHigherStage() throws IOException {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            assertThat(files.filter(p -> p.toString().endsWith(".java")).count()).as("source files scanned").isGreaterThan(100);
        }
        assertThat(upwardReferences(SOURCES)).as("references from a lower stage to a higher one").isEmpty();
    }

    @Test
    void theCheckFindsAnUpwardReference(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
        Files.createDirectories(tmp.resolve("net"));
        Files.writeString(tmp.resolve("net/Bad.java"), "package lbsim.net;\n/** used by lbsim.cli.Main */\nclass Bad { int x = lbsim.plan.Limits.MAX; } // not lbsim.experiment.X\n");
        Files.createDirectories(tmp.resolve("plan"));
        Files.writeString(tmp.resolve("plan/Fine.java"), "package lbsim.plan;\nimport lbsim.net.Port;\nclass Fine {}\n");
        assertThat(upwardReferences(tmp)).containsExactly("net/Bad.java: lbsim.plan");
    }

    @Test
    void everyPackageHasItsPlaceInTheOrder() throws IOException {
        try (Stream<Path> dirs = Files.list(SOURCES)) {
            assertThat(dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).toList())
                    .as("a new package must be placed in ORDER").allMatch(ORDER::contains);
        }
    }
}
