/**
 * Headless charts (PNG, SVG and PDF: line and bar charts drawn by XChart, their SVG and PDF written
 * from one recording by {@code VectorDrawing}; heat maps and the fabric drawing written directly by
 * {@code Scene}) and self-contained HTML reports.
 *
 * <p>Entry point: {@link lbsim.metrics.plot.Charts}, one static method per chart type, each taking
 * plain records ({@link lbsim.metrics.plot.Series}, {@link lbsim.metrics.plot.BarGroup},
 * {@link lbsim.metrics.plot.HeatMap}) and a directory, writing {@code NAME.png} and
 * {@code NAME.svg}. {@link lbsim.metrics.plot.FlowMetrics} and {@link lbsim.metrics.plot.LinkHeatMaps}
 * derive those records from a run's {@code FlowRecord}s and {@code LinkRecord}s;
 * {@link lbsim.metrics.plot.ReportPage} lays charts out in {@code report.html}, and
 * {@link lbsim.metrics.plot.RunReport} / {@link lbsim.metrics.plot.CompareReport} are the pages of
 * {@code lbsim run} and {@code lbsim compare}. Nothing here depends on the simulator's model or on
 * the CLI; see docs/reports.md.
 */
package lbsim.metrics.plot;
