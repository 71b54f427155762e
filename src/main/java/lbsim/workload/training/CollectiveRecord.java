package lbsim.workload.training;

import lbsim.workload.collective.CollectiveHandle;

/**
 * One communication of an iteration, in emission order.
 *
 * @param phase      tp-fwd, tp-bwd, pp-fwd, pp-bwd, dp-grad, or for a mixture of experts ep-fwd, ep-bwd (all-to-all) and ep-grad
 * @param op         collective op name (send-recv for pipeline transfers)
 * @param algorithm  algorithm used (after fallback)
 * @param sizeBytes  S of the collective (NCCL-tests sense); pipeline transfers: bytes per tensor rank
 * @param stage      pipeline stage (the sending stage for pipeline transfers)
 * @param index      data-parallel replica (tp-*, pp-*), expert-parallel block (ep-fwd, ep-bwd) or tensor shard (dp-grad, ep-grad)
 * @param microBatch micro-batch, -1 for gradient buckets
 * @param layer      layer, -1 when not per layer; bucket number for dp-grad
 * @param ranks      participating ranks
 */
public record CollectiveRecord(String phase, String op, String algorithm, long sizeBytes, int stage, int index,
                               int microBatch, int layer, int[] ranks, CollectiveHandle handle) {}
