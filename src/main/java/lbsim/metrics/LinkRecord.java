package lbsim.metrics;

/**
 * One row of links.csv: one direction of one link. {@code linkId} names the direction
 * ("from->to", with the bundle member's "/N" when the link has one); {@code state} is the link's
 * health at the end of the run (up, down, degraded, flaky) and {@code stateSinceNs} when it began
 * (NaN for a link up throughout).
 */
public record LinkRecord(String link, String linkId, String from, String to, double gbps, long bytes, double utilisation,
                         long maxQueueBytes, long drops, long ecnMarks, long pfcPausesReceived, double pausedUs,
                         String state, double stateSinceNs) {
}
