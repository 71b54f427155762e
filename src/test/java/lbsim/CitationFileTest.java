package lbsim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** CITATION.cff at the repository root parses as YAML and carries the keys CFF 1.2.0 requires. */
class CitationFileTest {

    @Test
    void citationFileHasTheRequiredKeys() throws Exception {
        JsonNode cff = new YAMLMapper().readTree(Files.readString(Path.of("CITATION.cff")));
        assertThat(cff.isObject()).isTrue();
        assertThat(cff.path("cff-version").asString()).isEqualTo("1.2.0");
        assertThat(cff.path("message").asString()).isNotBlank();
        assertThat(cff.path("title").asString()).startsWith("lbsim:");
        assertThat(cff.path("version").asString()).isEqualTo("0.1.0");
        assertThat(cff.path("license").asString()).isEqualTo("Apache-2.0");
        JsonNode authors = cff.path("authors");
        assertThat(authors.isArray()).isTrue();
        assertThat(authors.size()).isEqualTo(1);
        assertThat(authors.get(0).path("name").asString()).isEqualTo("the lbsim authors");
    }
}
