package lbsim.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
    @TempDir
    Path tmp;

    @Test
    void aWriteThatFailsHalfwayLeavesTheOldFileWholeAndNoTemporaryFile() throws Exception {
        Path f = tmp.resolve("summary.json");
        AtomicFiles.writeString(f, "{\"old\": 1}\n");
        assertThatThrownBy(() -> AtomicFiles.write(f, w -> {
            w.write("{\"new\": ");
            w.close();   // a CsvWriter closes its writer: that must not end the file
            throw new IOException("disk full");
        })).hasMessage("disk full");
        assertThat(Files.readString(f)).isEqualTo("{\"old\": 1}\n");
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files).containsExactly(f);
        }
    }

    @Test
    void theNewFileReplacesTheOldOneInsteadOfOverwritingIt() throws Exception {
        Path f = tmp.resolve("flows.csv");
        AtomicFiles.writeString(f, "a\n1\n");
        Path reader = tmp.resolve("open-by-a-reader");
        Files.createLink(reader, f);
        AtomicFiles.write(f, w -> {
            w.write("a\n2\n");
            w.close();
        });
        assertThat(Files.readString(f)).isEqualTo("a\n2\n");
        assertThat(Files.readString(reader)).isEqualTo("a\n1\n");
    }

    /** Files.createTempFile would leave results owner-only (0600); they keep the umask's permissions a plain write gives. */
    @Test
    void resultsAreAsReadableAsAPlainWriteMakesThem() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(tmp.getFileSystem().supportedFileAttributeViews().contains("posix"));
        Path plain = Files.writeString(tmp.resolve("plain.txt"), "x");
        Path f = tmp.resolve("summary.json");
        AtomicFiles.writeString(f, "{}\n");
        assertThat(Files.getPosixFilePermissions(f)).isEqualTo(Files.getPosixFilePermissions(plain));
    }
}
