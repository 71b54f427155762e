package lbsim;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict typed CSV reader for tests, as a data-frame library would infer types: every cell is
 * empty (missing), an integer, a decimal with a given number of places, true/false, or text; a
 * column must hold one type (and, for decimals, one number of places when asked) in every row.
 */
public final class StrictCsv {
    /** The type of a cell or column: kind and, for decimals, places after the point. */
    public record Type(String kind, int places) {
        public static final Type INTEGER = new Type("integer", 0), TEXT = new Type("text", 0), BOOL = new Type("bool", 0);

        public static Type decimal(int places) {
            return new Type("decimal", places);
        }

        @Override
        public String toString() {
            return kind.equals("decimal") ? "decimal, " + places + " places" : kind;
        }
    }

    private static final Pattern INT = Pattern.compile("-?\\d+");
    private static final Pattern DEC = Pattern.compile("-?\\d+\\.(\\d+)");

    /** A file's header and rows. */
    public record Table(Path file, List<String> header, List<List<String>> rows) {}

    private StrictCsv() {}

    public static Type typeOf(String cell) {
        if (INT.matcher(cell).matches()) return Type.INTEGER;
        Matcher m = DEC.matcher(cell);
        if (m.matches()) return Type.decimal(m.group(1).length());
        if (cell.equals("true") || cell.equals("false")) return Type.BOOL;
        return Type.TEXT;
    }

    /** Reads {@code file}; fails when a row's field count differs from the header's. */
    public static Table read(Path file) throws IOException {
        List<String> header;
        List<List<String>> rows = new ArrayList<>();
        try (CsvReader<CsvRecord> r = CsvReader.builder().ofCsvRecord(file)) {
            var it = r.iterator();
            if (!it.hasNext()) throw new AssertionError(file + ": empty");
            header = it.next().getFields();
            while (it.hasNext()) {
                CsvRecord rec = it.next();
                if (rec.getFieldCount() != header.size()) {
                    throw new AssertionError(file + " line " + rec.getStartingLineNumber() + ": " + rec.getFieldCount() + " fields, header has " + header.size());
                }
                rows.add(rec.getFields());
            }
        }
        return new Table(file, header, rows);
    }

    /**
     * Each column's type as a typed reader infers it (null for a column with only empty cells);
     * fails when a column mixes types (with {@code samePlaces}, decimals with different places too).
     */
    public static Map<String, Type> inferTypes(Table t, boolean samePlaces) {
        Map<String, Type> types = new LinkedHashMap<>();
        for (int c = 0; c < t.header().size(); c++) {
            Type col = null;
            String first = null;
            for (List<String> row : t.rows()) {
                String cell = row.get(c);
                if (cell.isEmpty()) continue;
                Type ty = typeOf(cell);
                if (col == null) {
                    col = ty;
                    first = cell;
                } else if (!col.kind().equals(ty.kind()) || (samePlaces && col.places() != ty.places())) {
                    throw new AssertionError(t.file() + ": column " + t.header().get(c) + " mixes " + col + " ('" + first + "') and " + ty
                            + " ('" + cell + "')");
                }
            }
            types.put(t.header().get(c), col);
        }
        return types;
    }

    /**
     * The header is exactly the schema's columns, in order, and every non-empty cell of a column
     * the schema types as integer or decimal is exactly that (text columns hold anything).
     */
    public static void check(Table t, Map<String, Type> schema) {
        if (!t.header().equals(List.copyOf(schema.keySet()))) {
            throw new AssertionError(t.file() + ": columns " + t.header() + ", schema " + schema.keySet());
        }
        for (int c = 0; c < t.header().size(); c++) {
            Type want = schema.get(t.header().get(c));
            if (want.equals(Type.TEXT)) continue;
            for (List<String> row : t.rows()) {
                String cell = row.get(c);
                if (!cell.isEmpty() && !typeOf(cell).equals(want)) {
                    throw new AssertionError(t.file() + ": column " + t.header().get(c) + " is " + want + " but holds '" + cell + "'");
                }
            }
        }
    }
}
