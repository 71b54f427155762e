package lbsim.metrics.plot;

import java.util.List;

/**
 * A matrix of values in [0,1] with named rows and columns; {@code values[row][col]} is NaN
 * where there is nothing (no link at that position).
 */
public record HeatMap(String title, String rowLabel, String columnLabel, List<String> rows, List<String> columns,
                      double[][] values) {
    public HeatMap {
        rows = List.copyOf(rows);
        columns = List.copyOf(columns);
        if (values.length != rows.size()) throw new IllegalArgumentException(title + ": " + values.length + " value rows for " + rows.size() + " rows");
        for (double[] r : values) {
            if (r.length != columns.size()) throw new IllegalArgumentException(title + ": a value row is not " + columns.size() + " long");
        }
    }
}
