package lbsim.metrics.plot;

import java.awt.Color;
import java.awt.Font;
import java.util.List;

/**
 * A {@link HeatMap} laid out as a {@link Scene}: one rectangle per cell (row 0 at the bottom, cells
 * in a row with the same colour merged into one rectangle), the row and column names as tick labels
 * (thinned to every n-th when they would overlap), axis titles, and the {@link ColourBar} on the
 * right. Sizes are those the XChart heat map had: 22 px per row and 48 per column within bounds.
 */
final class HeatMapDrawing {
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 14);
    private static final Font AXIS = new Font(Font.SANS_SERIF, Font.BOLD, 12);
    private static final Color FRAME = Color.GRAY;
    private static final int MARGIN = 10, TOP = 40, TICK = 4, GAP = 6;

    private HeatMapDrawing() {}

    /** The map's width and height without the colour bar, in pixels: they grow with the rows and columns, within bounds. */
    static int width(HeatMap map) {
        return Math.max(560, Math.min(2400, 300 + 48 * map.columns().size())) - ColourBar.WIDTH;
    }

    static int height(HeatMap map) {
        return Math.max(360, Math.min(2400, 140 + 22 * map.rows().size()));
    }

    /** The tick-label font: smaller on maps with many rows, so more of their names fit. */
    static Font tickFont(int names) {
        return new Font(Font.SANS_SERIF, Font.PLAIN, names > 48 ? 8 : 11);
    }

    /** Every {@code step}-th of {@code n} positions {@code pitch} px apart is labelled, so labels {@code size} px wide keep apart. */
    static int step(double pitch, double size) {
        return Math.max(1, (int) Math.ceil((size + 2) / Math.max(pitch, 1e-9)));
    }

    static Scene scene(HeatMap map, double scaleMax) {
        List<String> rows = map.rows(), cols = map.columns();
        int w = width(map), h = height(map);
        Scene s = new Scene(map.title(), w + ColourBar.WIDTH, h);
        Font rowFont = tickFont(rows.size()), colFont = tickFont(Math.max(rows.size(), cols.size()));
        boolean turned = cols.size() > 8;
        double rowLabels = 0, colLabels = 0;
        for (String r : rows) rowLabels = Math.max(rowLabels, Scene.advance(r, rowFont));
        for (String c : cols) colLabels = Math.max(colLabels, Scene.advance(c, colFont));
        double colLabelHeight = turned ? colLabels : colFont.getSize2D();
        double left = MARGIN + AXIS.getSize2D() + GAP + rowLabels + GAP + TICK;
        double right = w - MARGIN;
        double bottom = h - (MARGIN + AXIS.getSize2D() + GAP + colLabelHeight + GAP + TICK);
        double top = TOP;
        s.text(map.title(), TITLE, (left + right) / 2, 24, Scene.Anchor.MIDDLE, false, Color.BLACK);
        // cells: integer edges, so neighbours meet without a seam; one rectangle per run of one colour in a row
        int nr = rows.size(), nc = cols.size();
        double[][] v = map.values();
        for (int r = 0; r < nr; r++) {
            int y0 = (int) Math.round(bottom - (r + 1) * (bottom - top) / nr), y1 = (int) Math.round(bottom - r * (bottom - top) / nr);
            int k = 0;
            while (k < nc) {
                if (Double.isNaN(v[r][k])) { k++; continue; }
                Color c = ColourBar.colour(Charts.RAMP, Math.max(0, Math.min(scaleMax, v[r][k])) / scaleMax);
                int end = k + 1;
                while (end < nc && !Double.isNaN(v[r][end])
                        && ColourBar.colour(Charts.RAMP, Math.max(0, Math.min(scaleMax, v[r][end])) / scaleMax).equals(c)) end++;
                int x0 = (int) Math.round(left + k * (right - left) / nc), x1 = (int) Math.round(left + end * (right - left) / nc);
                if (y1 > y0 && x1 > x0) s.fill(x0, y0, x1 - x0, y1 - y0, c);
                k = end;
            }
        }
        s.frame(left, top, right - left, bottom - top, FRAME);
        // row names up the left, column names along the bottom
        double rowPitch = (bottom - top) / nr, colPitch = (right - left) / nc;
        int rowStep = step(rowPitch, rowFont.getSize2D());
        for (int r = 0; r < nr; r += rowStep) {
            double y = bottom - (r + 0.5) * rowPitch;
            s.line(left - TICK, y, left, y, FRAME, 1, 0);
            s.text(rows.get(r), rowFont, left - TICK - 3, y + 0.35 * rowFont.getSize2D(), Scene.Anchor.END, false, Color.BLACK);
        }
        int colStep = step(colPitch, turned ? colFont.getSize2D() : colLabels + 4);
        for (int k = 0; k < nc; k += colStep) {
            double x = left + (k + 0.5) * colPitch;
            s.line(x, bottom, x, bottom + TICK, FRAME, 1, 0);
            if (turned) s.text(cols.get(k), colFont, x + 0.35 * colFont.getSize2D(), bottom + TICK + 3, Scene.Anchor.END, true, Color.BLACK);
            else s.text(cols.get(k), colFont, x, bottom + TICK + 3 + colFont.getSize2D(), Scene.Anchor.MIDDLE, false, Color.BLACK);
        }
        s.text(map.columnLabel(), AXIS, (left + right) / 2, h - MARGIN - 2, Scene.Anchor.MIDDLE, false, Color.BLACK);
        s.text(map.rowLabel(), AXIS, MARGIN + AXIS.getSize2D(), (top + bottom) / 2, Scene.Anchor.MIDDLE, true, Color.BLACK);
        new ColourBar(Charts.RAMP, scaleMax, 100, "utilisation (%)").addTo(s, w, h);
        return s;
    }
}
