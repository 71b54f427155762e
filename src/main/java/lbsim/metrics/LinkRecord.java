package lbsim.metrics;

/** One row of links.csv: one direction of one link. */
public record LinkRecord(String link, String from, String to, double gbps, long bytes, double utilisation,
                         long maxQueueBytes, long drops, long ecnMarks, long pfcPausesReceived, double pausedUs) {
}
