package lbsim.metrics.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.List;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * How the i-th series of a chart is drawn: a colour, a dash pattern and a marker shape, chosen so
 * that no two of the first {@link #DISTINCT} series share the same colour and dash, and a reader
 * with a colour-vision deficiency (or a greyscale print) can still tell them apart by the dashes.
 */
public record SeriesStyle(Color colour, float[] dash, Marker marker, String dashName, String markerName) {
    /** Okabe and Ito's colour-blind-safe palette (Color Universal Design, 2002) without its yellow, too light on white. */
    static final Color[] COLOURS = {
        new Color(0x0072B2), new Color(0xE69F00), new Color(0x009E73), new Color(0xD55E00),
        new Color(0x56B4E9), new Color(0xCC79A7), new Color(0x000000),
    };
    /** solid, dashed, dotted: with 7 colours, 21 distinct (colour, dash) pairs. */
    private static final float[][] DASHES = {null, {7, 4}, {2, 3}};
    private static final String[] DASH_NAMES = {"solid", "dashed", "dotted"};
    private static final List<Marker> MARKERS = List.of(SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND,
            SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS, SeriesMarkers.PLUS);
    private static final String[] MARKER_NAMES = {"circle", "square", "diamond", "triangle-up", "triangle-down", "cross", "plus"};

    /** Series styles that are pairwise distinct in (colour, dash). */
    public static final int DISTINCT = 7 * 3;

    /**
     * The style of series {@code i} (0-based): the colour cycles fastest, the dash changes every 7
     * series, and the marker is offset by the dash so series sharing a colour also differ in marker.
     */
    public static SeriesStyle of(int i) {
        if (i < 0) throw new IllegalArgumentException("series index " + i + " < 0");
        int colour = i % COLOURS.length, dash = i / COLOURS.length % DASHES.length;
        int marker = (colour + 3 * dash) % MARKERS.size();
        return new SeriesStyle(COLOURS[colour], DASHES[dash], MARKERS.get(marker), DASH_NAMES[dash], MARKER_NAMES[marker]);
    }

    /** The line stroke: width 2, this style's dashes. */
    public BasicStroke stroke() {
        return dash == null ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND)
                : new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10, dash.clone(), 0);
    }

    /** The key that makes two styles look alike on a line chart (colour and dash pattern). */
    String lineKey() {
        return Integer.toHexString(colour.getRGB()) + "/" + dashName;
    }
}
