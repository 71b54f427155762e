package lbsim.metrics.plot;

/** A moment drawn as a labelled vertical line across a time chart (a link failure, its detection). */
public record Marker(double x, String label) {}
