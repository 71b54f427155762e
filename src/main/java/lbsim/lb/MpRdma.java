package lbsim.lb;

import java.util.SplittableRandom;

/**
 * MP-RDMA-x as the Ethereal paper uses it as a baseline (§4: "MP-RDMA-x", x = 2, 4, 8):
 * each flow split into x subflows on separate QPs, each hashed by ECMP. MP-RDMA's own
 * multi-path ACK clocking and out-of-order-aware path pruning (Lu et al., NSDI 2018) are
 * not modelled here.
 */
public final class MpRdma {
    private MpRdma() {}

    public static Subflows hostHalf(int splits, SplittableRandom random) {
        return new Subflows(splits, false, random, false);
    }

    /** With {@code perConnectionPorts}: QP i of a connection keeps one port across its flows (NCCL's QPs, CTCCL §4.2). */
    public static Subflows hostHalf(int splits, SplittableRandom random, boolean perConnectionPorts) {
        return new Subflows(splits, false, random, perConnectionPorts);
    }
}
