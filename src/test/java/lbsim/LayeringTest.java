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
 * The packages follow the data flow, low to high; a package imports only packages below it (and the root
 * package's shared types), so the simulator core never depends on how experiments, plans or the CLI use it.
 */
class LayeringTest {
    /** Low to high. */
    static final List<String> ORDER = List.of("engine", "topology", "net", "transport", "lb", "workload", "metrics",
            "plan", "experiment", "cli");
    static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?lbsim\\.([a-z]+)\\.", Pattern.MULTILINE);
    static final Path SRC = Path.of("src/main/java/lbsim");

    @Test
    void everyPackageImportsOnlyLowerOnes() throws IOException {
        List<String> violations = new ArrayList<>();
        int files = 0;
        for (String pkg : ORDER) {
            try (Stream<Path> s = Files.walk(SRC.resolve(pkg))) {
                for (Path f : s.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    Matcher m = IMPORT.matcher(Files.readString(f));
                    while (m.find()) {
                        String to = m.group(1);
                        assertThat(ORDER).as("package imported by %s", f).contains(to);
                        if (ORDER.indexOf(to) > ORDER.indexOf(pkg)) violations.add(SRC.relativize(f) + " imports lbsim." + to);
                    }
                }
            }
        }
        assertThat(files).as("source files scanned").isGreaterThan(100);
        assertThat(violations).isEmpty();
    }

    @Test
    void everySourcePackageIsPlacedInTheOrder() throws IOException {
        try (Stream<Path> s = Files.list(SRC)) {
            List<String> pkgs = s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).toList();
            assertThat(ORDER).containsAll(pkgs);
        }
    }
}
