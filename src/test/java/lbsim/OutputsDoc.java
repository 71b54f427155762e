package lbsim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * docs/outputs.md read as a schema, for tests: per output file (a {@code ## `NAME`} section) its
 * table of columns, and the table of summary.json fields that the flattened summary columns of
 * compare.csv and results.csv come from. {@link #check} holds a CSV lbsim wrote against its table
 * (every column documented, in order, with its type; every column that is always there present),
 * {@link #checkSummary} a summary.json against the field table.
 */
public final class OutputsDoc {
    /** Marker rows of a table: a run of columns described elsewhere. */
    public static final String SUMMARY_FIELDS = "summary fields", GRID_COLUMNS = "grid columns";

    /** A documented column: its name (or alternative names), or a marker; its type and when it may be empty. */
    public record Column(List<String> names, String marker, String type, String missingWhen) {}

    /** A documented summary.json field: its dotted path ({@code <label>} for a list element's label), type and when it may be missing. */
    public record Field(String path, Pattern pattern, String type, String missingWhen) {
        /** Whether the field is in every summary, never null. */
        public boolean always() {
            return missingWhen.isEmpty();
        }

        /** Whether the field becomes a column of compare.csv and results.csv (lists of text, seed and wall_ms do not). */
        public boolean flattened() {
            return !type.startsWith("list") && !path.equals("seed") && !path.equals("wall_ms");
        }
    }

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    private final Map<String, List<Column>> tables = new LinkedHashMap<>();
    private final List<Field> fields = new ArrayList<>();

    private OutputsDoc(String text) {
        String section = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("## ")) {
                Matcher m = CODE.matcher(line);
                section = m.find() ? m.group(1) : line.substring(3).trim();
                continue;
            }
            if (section == null || !line.startsWith("|") || !line.endsWith("|")) continue;
            String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
            if (cells.length != 4 || cells[0].isBlank()) continue;
            String name = cells[0].trim(), type = cells[1].trim(), missing = cells[3].trim();
            if (name.equals("column") || name.equals("field") || name.startsWith("---")) continue;
            if (section.equals("summary.json")) {
                Matcher m = CODE.matcher(name);
                if (!m.find()) throw new AssertionError("docs/outputs.md summary.json table: a field without a `name`: " + line);
                String path = m.group(1);
                fields.add(new Field(path, pattern(path), type, missing));
            } else {
                List<String> names = new ArrayList<>();
                Matcher m = CODE.matcher(name);
                while (m.find()) names.add(m.group(1));
                String marker = name.startsWith("*") && name.endsWith("*") ? name.substring(1, name.length() - 1) : null;
                if (names.isEmpty() && marker == null) throw new AssertionError("docs/outputs.md " + section + ": a row without a column name: " + line);
                tables.computeIfAbsent(section, k -> new ArrayList<>()).add(new Column(List.copyOf(names), marker, type, missing));
            }
        }
    }

    /** {@code collectives.<group>.cct_ns} as a pattern: the label stands for any text (a link class may hold dots). */
    private static Pattern pattern(String path) {
        StringBuilder re = new StringBuilder();
        Matcher m = Pattern.compile("<[^>]+>").matcher(path);
        int at = 0;
        while (m.find()) {
            re.append(Pattern.quote(path.substring(at, m.start()))).append(".+");
            at = m.end();
        }
        return Pattern.compile(re.append(Pattern.quote(path.substring(at))).toString());
    }

    /** docs/outputs.md of this checkout. */
    public static OutputsDoc read() throws IOException {
        return parse(Files.readString(Path.of("docs/outputs.md")));
    }

    public static OutputsDoc parse(String markdown) {
        return new OutputsDoc(markdown);
    }

    /** The section documenting an output file: its name, or its pattern ({@code plots/paper-figure-N.csv}). */
    public String sectionOf(Path csv) {
        String name = csv.getFileName().toString();
        for (String s : tables.keySet()) {
            String last = s.substring(s.lastIndexOf('/') + 1);
            if (last.equals(name) || Pattern.matches(Pattern.quote(last).replace("N", "\\E\\d+\\Q"), name)) return s;
        }
        throw new AssertionError(csv + ": no section of docs/outputs.md documents " + name + " (documented: " + tables.keySet() + ")");
    }

    public List<Column> table(String section) {
        List<Column> t = tables.get(section);
        if (t == null) throw new AssertionError("docs/outputs.md has no table for " + section);
        return t;
    }

    public List<Field> fields() {
        return fields;
    }

    /** The documented field a flattened column or JSON path is, or null. */
    public Field field(String path) {
        for (Field f : fields) if (f.pattern().matcher(path).matches()) return f;
        return null;
    }

    /**
     * Checks {@code csv} against its section: read strictly (one field count per row), the header is
     * the documented columns in order (a marker row stands for the grid columns {@code grid}, or for
     * summary fields), each cell of the column's type, a column with nothing under "missing when"
     * never empty. Summary columns: each a documented field of its type (an integer field is a
     * decimal column when {@code means}: compare.csv over several seeds); with {@code complete} (a
     * file whose runs this lbsim made), every field that is always there must be a column, never
     * empty. Returns the fields the file's columns are.
     */
    public Set<Field> check(Path csv, List<String> grid, boolean means, boolean complete) throws IOException {
        StrictCsv.Table t = StrictCsv.read(csv);
        List<String> h = t.header();
        if (new HashSet<>(h).size() != h.size()) throw new AssertionError(csv + ": a column name repeats: " + h);
        List<Column> cols = table(sectionOf(csv));
        Set<Field> seen = new LinkedHashSet<>();
        int i = 0;
        for (int c = 0; c < cols.size(); c++) {
            Column col = cols.get(c);
            if (GRID_COLUMNS.equals(col.marker())) {
                if (i + grid.size() > h.size() || !h.subList(i, i + grid.size()).equals(grid)) {
                    throw new AssertionError(csv + ": the grid columns " + grid + " should come at column " + i + ": " + h);
                }
                for (String g : grid) checkGridColumn(t, h.indexOf(g));
                i += grid.size();
            } else if (SUMMARY_FIELDS.equals(col.marker())) {
                Set<String> next = c + 1 < cols.size() ? Set.copyOf(cols.get(c + 1).names()) : Set.of();
                Set<String> fixed = new HashSet<>();
                for (Column o : cols) fixed.addAll(o.names());
                for (; i < h.size() && !next.contains(h.get(i)); i++) {
                    Field f = field(h.get(i));
                    if (f == null || !f.flattened()) {
                        throw new AssertionError(csv + ": column '" + h.get(i) + "' is not a summary field that docs/outputs.md documents");
                    }
                    seen.add(f);
                    String type = means && f.type().equals("integer") ? "decimal" : f.type();
                    checkColumn(t, i, type, complete && f.always());   // a run kept from an older lbsim may lack a field added since
                }
                if (complete) {
                    for (Field f : fields) {
                        if (f.always() && f.flattened() && !fixed.contains(f.path()) && !seen.contains(f)) {
                            throw new AssertionError(csv + ": documented summary field " + f.path() + " (always there) is not a column");
                        }
                    }
                }
            } else {
                if (i >= h.size() || !col.names().contains(h.get(i))) {
                    throw new AssertionError(csv + ": column " + i + " should be " + String.join(" or ", col.names()) + ", is "
                            + (i < h.size() ? "'" + h.get(i) + "'" : "missing") + " (header " + h + ")");
                }
                checkColumn(t, i, col.type(), col.missingWhen().isEmpty());
                i++;
            }
        }
        if (i != h.size()) throw new AssertionError(csv + ": undocumented columns " + h.subList(i, h.size()));
        return seen;
    }

    /** Every non-empty cell of column {@code c} is of {@code type} (integer, decimal[, N places], boolean, text); none empty when {@code full}. */
    private static void checkColumn(StrictCsv.Table t, int c, String type, boolean full) {
        String name = t.header().get(c);
        for (List<String> row : t.rows()) {
            String cell = row.get(c);
            if (cell.isEmpty()) {
                if (full) throw new AssertionError(t.file() + ": column " + name + " is never missing, but a row has it empty: " + row);
                continue;
            }
            StrictCsv.Type got = StrictCsv.typeOf(cell);
            boolean ok = switch (type) {
                case "text" -> true;
                case "integer" -> got.equals(StrictCsv.Type.INTEGER);
                case "decimal" -> got.kind().equals("decimal");
                case "boolean" -> got.equals(StrictCsv.Type.BOOL);
                default -> {
                    Matcher m = Pattern.compile("decimal, (\\d+) places").matcher(type);
                    if (!m.matches()) throw new AssertionError("docs/outputs.md: unknown type '" + type + "' of column " + name);
                    yield got.equals(StrictCsv.Type.decimal(Integer.parseInt(m.group(1))));
                }
            };
            if (!ok) throw new AssertionError(t.file() + ": column " + name + " is " + type + " but holds '" + cell + "'");
        }
    }

    /** A grid column: all integers, all decimals (some written N.0), or text. */
    private static void checkGridColumn(StrictCsv.Table t, int c) {
        Set<String> kinds = new HashSet<>();
        for (List<String> row : t.rows()) kinds.add(StrictCsv.typeOf(row.get(c)).kind());
        if (kinds.size() > 1 && !kinds.contains("text")) {
            throw new AssertionError(t.file() + ": grid column " + t.header().get(c) + " mixes " + kinds);
        }
    }

    /**
     * Checks a summary.json: every value is a documented field of its JSON type, null only where the
     * field may be missing, and every field that is always there is present. Returns the fields it
     * holds with a value (not null).
     */
    public Set<Field> checkSummary(JsonNode summary, Path file) {
        Set<Field> valued = new LinkedHashSet<>();
        walk("", summary, file, valued);
        for (Field f : fields) {
            if (f.always() && !valued.contains(f)) throw new AssertionError(file + ": documented field " + f.path() + " (always there) is missing or null");
        }
        return valued;
    }

    private void walk(String prefix, JsonNode node, Path file, Set<Field> valued) {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String path = prefix + e.getKey();
            JsonNode v = e.getValue();
            if (v.isObject()) {
                walk(path + ".", v, file, valued);
                continue;
            }
            if (v.isArray() && !v.isEmpty() && v.get(0).isObject()) {
                for (JsonNode el : v) {
                    var first = el.properties().iterator().next();
                    tools.jackson.databind.node.ObjectNode rest = ((tools.jackson.databind.node.ObjectNode) el).deepCopy();
                    rest.remove(first.getKey());
                    walk(path + "." + first.getValue().asString() + ".", rest, file, valued);
                }
                continue;
            }
            if (v.isArray() && v.isEmpty() && fields.stream().anyMatch(f -> f.path().startsWith(path + ".<"))) continue;   // a list of objects with none
            Field f = field(path);
            if (f == null) throw new AssertionError(file + ": field " + path + " is not in docs/outputs.md's summary.json table");
            if (v.isNull()) {
                if (f.always()) throw new AssertionError(file + ": field " + path + " is null, but docs/outputs.md says it never is");
                continue;
            }
            boolean ok = switch (f.type()) {
                case "integer" -> v.isIntegralNumber();
                case "decimal" -> v.isFloatingPointNumber();
                case "boolean" -> v.isBoolean();
                case "text" -> v.isString();
                case "list of text" -> {
                    boolean all = v.isArray();
                    for (JsonNode x : v) all &= x.isString();
                    yield all;
                }
                default -> throw new AssertionError("docs/outputs.md: unknown type '" + f.type() + "' of field " + f.path());
            };
            if (!ok) throw new AssertionError(file + ": field " + path + " is documented as " + f.type() + " but holds " + v);
            valued.add(f);
        }
    }
}
