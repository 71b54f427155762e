package lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** --version names lbsim's version and the commit the build was made from (issue 30 item 3). */
class VersionTest {

    @Test
    void versionPrintsTheVersionAndTheCommit() {
        PrintStream oldOut = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exit = Main.execute("--version");
        } finally {
            System.setOut(oldOut);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).isZero();
        assertThat(text).startsWith("lbsim 0.1.0");
        // the build filled the resource in: a commit id, or "unknown" outside a git checkout, never a placeholder
        assertThat(text.strip()).matches("lbsim 0\\.1\\.0 \\(commit ([0-9a-f]{4,40}|unknown)\\)");
    }
}
