package lbsim.net;

/** Counters of one link direction at the end of a run. */
public record PortStats(long txBytes, long txPackets, long txDataPackets, long maxQueueBytes, long bufferDrops,
                        long wireDrops, long ecnMarks, long pauseFramesReceived, long pauseFramesSent, long pausedPs) {
}
