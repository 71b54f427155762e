package lbsim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lbsim.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A YAML input that cannot be read says why: missing, a folder, too large, not UTF-8, empty, several documents. */
class YamlInputTest {
    @TempDir
    Path tmp;

    static void refused(Path f, String... expected) {
        assertThatThrownBy(() -> ScenarioLoader.load(f, List.of(), null)).isInstanceOf(BadInputException.class)
                .hasMessageStartingWith(f.toString()).hasMessageContainingAll(expected);
    }

    @Test
    void eachUnreadableInputIsNamedWithItsReason() throws Exception {
        refused(tmp.resolve("missing.yaml"), "no such scenario file");
        refused(tmp, "is a folder, not a scenario file");
        refused(Files.write(tmp.resolve("latin1.yaml"), "name: x\nlabel: caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)),
                "line 2", "not UTF-8 text", "byte 0xE9", "offset 18");
        refused(Files.writeString(tmp.resolve("empty.yaml"), "  \n\n"), "is empty");
        refused(Files.writeString(tmp.resolve("two.yaml"), "name: a\n---\nname: b\n"), "line 3", "a second YAML document");
        long max = YamlInput.maxBytes();
        assertThat(max).isEqualTo(3L << 20);
        Path big = Files.writeString(tmp.resolve("big.yaml"), "name: \"" + "a".repeat((int) max) + "\"\n");
        refused(big, "more than the 3 MB", YamlInput.ENV);
    }

    @Test
    void aSweepsBaseFileAndATopologyFileSayTheSame() throws Exception {
        Path sweep = Files.writeString(tmp.resolve("s.yaml"), "base: nowhere.yaml\ngrid: {seed: [1]}\n");
        assertThatThrownBy(() -> SweepSpec.load(sweep, List.of())).isInstanceOf(BadInputException.class)
                .hasMessageContainingAll("base:", "no such scenario file");
        assertThatThrownBy(() -> SweepSpec.load(tmp.resolve("none.yaml"), List.of())).hasMessageContaining("no such sweep file");
        assertThatThrownBy(() -> FabricFile.read(tmp.resolve("fabric.yaml"))).hasMessageContaining("no such topology file");
    }
}
