package lbsim.plan;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.LineDelimiter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.List;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.util.DefaultIndenter;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Shared deterministic rendering helpers (JSON with "\n" line ends, CSV with "\n" line ends, numbers). */
final class PlanRendering {
    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final ObjectWriter PRETTY = MAPPER.writer().with(new DefaultPrettyPrinter()
            .withSeparators(Separators.createDefaultInstance().withObjectNameValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n")));

    private PlanRendering() {
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Pretty JSON, objects and arrays indented by two spaces, ending with a newline. */
    /** The JSON object every plan starts with: its kind and the paper it comes from. */
    static ObjectNode root(String kind, String source) {
        ObjectNode root = object();
        root.put("plan", kind);
        root.put("source", source);
        return root;
    }

    /** Appends one "note: ..." line per note. */
    static void appendNotes(StringBuilder sb, List<String> notes) {
        for (String n : notes) sb.append("note: ").append(n).append('\n');
    }

    static String json(ObjectNode node) {
        return PRETTY.writeValueAsString(node) + "\n";
    }

    /** Writes one row of a streamed JSON array. */
    interface RowWriter<T> {
        void write(JsonGenerator g, T row);
    }

    /**
     * Pretty JSON as {@link #json(ObjectNode)} would print {@code head}'s fields, then {@code name}: the rows, then
     * {@code tail}'s fields, but with the rows written one by one to {@code out} (no tree of them in memory).
     */
    static <T> void json(Writer out, ObjectNode head, String name, Iterable<T> rows, RowWriter<T> row, ObjectNode tail) {
        try (JsonGenerator g = PRETTY.createGenerator(new NonClosing(out))) {
            g.writeStartObject();
            for (var e : head.properties()) {
                g.writeName(e.getKey());
                g.writeTree(e.getValue());
            }
            g.writeName(name);
            g.writeStartArray();
            for (T r : rows) {
                row.write(g, r);
            }
            g.writeEndArray();
            for (var e : tail.properties()) {
                g.writeName(e.getKey());
                g.writeTree(e.getValue());
            }
            g.writeEndObject();
        }
        try {
            out.write("\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** CSV as {@link #csv(List, List)}, written record by record to {@code out}. */
    static <T> void csv(Writer out, List<String> header, Iterable<T> rows, java.util.function.Function<T, List<String>> cells) {
        try (CsvWriter csv = CsvWriter.builder().lineDelimiter(LineDelimiter.LF).build(new NonClosing(out))) {
            csv.writeRecord(header);
            for (T row : rows) {
                csv.writeRecord(cells.apply(row));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Flushes but does not close the caller's writer (standard output). */
    private static final class NonClosing extends java.io.FilterWriter {
        NonClosing(Writer out) {
            super(out);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    static void putStrings(ObjectNode node, String field, List<String> values) {
        ArrayNode array = node.putArray(field);
        values.forEach(array::add);
    }

    /** CSV with a header row, "\n" line ends and minimal quoting. */
    static String csv(List<String> header, List<List<String>> rows) {
        StringWriter out = new StringWriter();
        try (CsvWriter csv = CsvWriter.builder().lineDelimiter(LineDelimiter.LF).build(out)) {
            csv.writeRecord(header);
            for (List<String> row : rows) {
                csv.writeRecord(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** A double in plain decimal notation without trailing zeros ("2", "1.9784", "0.2"). */
    static String num(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return Double.toString(value);
        }
        if (value == 0) {
            return "0";
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    static String num(BigDecimal value) {
        return value.signum() == 0 ? "0" : value.stripTrailingZeros().toPlainString();
    }
}
