package lbsim.metrics;

/**
 * One collective of a run (kind collective; one per job): completion and NCCL-tests
 * bandwidths (reference/algorithms.md §6.5). algbw = S / CCT, busbw = algbw x the op's
 * factor, both in Gbit/s (NCCL-tests prints GB/s: divide by 8). Null when unfinished.
 */
public record CollectiveResult(int group, String label, String op, String algorithm, long sizeBytes, int ranks,
                               Long cctNs, long idealNs, Double algbwGbps, Double busbwGbps) {
}
