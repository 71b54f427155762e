package lbsim.workload.collective;

/**
 * Closed-form lower bound on a collective's completion time on a non-blocking fabric where every
 * NIC sends and receives at {@code linkGbps} and every transfer takes {@code latencyPs} more
 * (propagation; store-and-forward and reduction compute are not counted). With t(x) = x / B:
 *
 * <pre>
 *   T = max( t(W) + L , hops x (t(c) + L) )
 * </pre>
 * W = bytes the busiest NIC must send or receive, hops = transfers on the longest dependency
 * chain of one pipeline piece, c = bytes per transfer on that chain (the channel share cut as
 * the generator cuts it). Per algorithm (n ranks, S bytes, K pieces, docs/collectives.md):
 * ring all-reduce W = 2(n-1)/n S, hops 2(n-1), c = S/(n K); ring reduce-scatter / all-gather
 * half of that; ring broadcast / reduce W = S, hops n-1, c = S/K, and since a transfer's pieces go
 * out in order also t(S) + (n-2) t(c) + (n-1) L (the last piece forwarded down the chain); double binary tree: W from the
 * trees, hops 2 x height, c = S/(2K); halving-doubling / recursive-doubling all-reduce
 * sum over the 2 log2 p steps of (t(step bytes) + L), plus 2 (t(S/K) + L) and W += S when n is
 * not a power of two (with fewer bytes in a channel than p blocks only the steps whose every
 * transfer carries bytes count: empty transfers emit no flow); direct all-reduce 2 (t((n-1)/n S / K) + L) vs t(2(n-1)/n S) + L; direct
 * one-step ops t(W) + L; hierarchical T_rs/K + T(inner on S/g over n/g ranks) + T_ag/K.
 */
public final class IdealTime {
    private IdealTime() {}

    public static long lowerBoundPs(CollectiveSpec spec, double linkGbps, long latencyPs) {
        Op op = Op.of(spec.op());
        Algorithm alg = Collectives.checkedAlgorithm(op, spec.algorithm());
        if (alg != Algorithm.HIERARCHICAL) {
            long pipe = ChunkDefaults.pipelineBytes(alg, op, spec.chunkBytes());
            return Math.round(bound(op, alg, spec.ranks(), spec.sizeBytes(), spec.channels(), pipe, linkGbps, latencyPs));
        }
        Algorithm inner = Collectives.checkedAlgorithm(op, spec.innerAlgorithm());
        int servers = spec.ranks() / spec.ranksPerServer();
        long share = ByteSplit.part(spec.sizeBytes(), spec.ranksPerServer(), 0);
        long pipe = ChunkDefaults.pipelineBytes(inner, op, spec.chunkBytes());
        double innerPs = bound(op, inner, servers, share, spec.channels(), pipe, linkGbps, latencyPs);
        return Math.round(offFabricPs(spec) + innerPs);
    }

    /**
     * The part of {@link #lowerBoundPs} no fabric flow covers: for a hierarchical collective the
     * intra-server reduce-scatter before its first piece reaches the fabric plus the all-gather after
     * its last, T_rs/K + T_ag/K; 0 for the others.
     */
    public static double offFabricPs(CollectiveSpec spec) {
        Op op = Op.of(spec.op());
        if (Collectives.checkedAlgorithm(op, spec.algorithm()) != Algorithm.HIERARCHICAL) return 0;
        Algorithm inner = Collectives.checkedAlgorithm(op, spec.innerAlgorithm());
        int g = spec.ranksPerServer();
        long share = ByteSplit.part(spec.sizeBytes(), g, 0);
        long pipe = ChunkDefaults.pipelineBytes(inner, op, spec.chunkBytes());
        int pieces = ByteSplit.piecesOf(largestPiece(op, inner, spec.ranks() / g, ByteSplit.part(share, spec.channels(), 0)), pipe);
        double cross = (double) spec.sizeBytes() * (g - 1) / g;
        double rs = op == Op.ALL_GATHER ? 0 : Rates.psAtGBps(cross, spec.intraServerGBps());
        double ag = op == Op.REDUCE_SCATTER ? 0 : Rates.psAtGBps(cross, spec.intraServerGBps());
        return rs / pieces + ag / pieces;
    }

    /** The transfer size that decides the pipeline piece count, as the generators compute it. */
    private static long largestPiece(Op op, Algorithm alg, int n, long share) {
        return switch (alg) {
            case RING -> op == Op.BROADCAST || op == Op.REDUCE ? share : ByteSplit.part(share, n, 0);
            case DOUBLE_BINARY_TREE -> ByteSplit.part(share, 2, 0);
            case HALVING_DOUBLING, RECURSIVE_DOUBLING -> Integer.bitCount(n) == 1
                    ? new ButterflyAlgorithm.BlockSets(share, n).largestHalf() : share;
            case DIRECT -> op == Op.ALL_REDUCE ? ByteSplit.part(share, n, 0) : Long.MAX_VALUE;
            case HIERARCHICAL -> throw new IllegalStateException();
        };
    }

    private static double bound(Op op, Algorithm alg, int n, long size, int channels, long pipe, double gbps, long lat) {
        double share = (double) size / channels;
        long largest = largestPiece(op, alg, n, ByteSplit.part(size, channels, 0));
        int k = largest == Long.MAX_VALUE ? 1 : ByteSplit.piecesOf(largest, pipe);
        double s = size;
        return switch (alg) {
            case RING -> switch (op) {
                case ALL_REDUCE -> maxOf(2.0 * (n - 1) / n * s, 2 * (n - 1), share / n / k, gbps, lat);
                case BROADCAST, REDUCE -> Math.max(maxOf(s, n - 1, share / k, gbps, lat), chainBound(n, size, channels, k, gbps, lat));
                default -> maxOf((double) (n - 1) / n * s, n - 1, share / n / k, gbps, lat);
            };
            case DOUBLE_BINARY_TREE -> treeBound(n, s, share / 2 / k, gbps, lat);
            case HALVING_DOUBLING, RECURSIVE_DOUBLING -> butterflyBound(op, alg, n, s, share / k,
                    ByteSplit.part(size, channels, 0), k, gbps, lat);
            case DIRECT -> directBound(op, n, s, k * channels, gbps, lat);
            case HIERARCHICAL -> throw new IllegalStateException();
        };
    }

    /**
     * A chain whose transfers' pieces go out in order (docs/collectives.md §3.7): the first NIC sends
     * all S bytes, so some channel's last piece leaves it no earlier than t(S); that piece is then
     * forwarded n - 2 more times, each at least its own wire time, over n - 1 links. The smallest
     * piece (the exact split's floor) keeps the bound below every cut.
     */
    private static double chainBound(int n, long size, int channels, int k, double gbps, long lat) {
        long smallestPiece = size / channels / k;
        return Rates.psAtGbps(size, gbps) + (n - 2) * Rates.psAtGbps(smallestPiece, gbps) + (n - 1) * (double) lat;
    }

    private static double maxOf(double busiestBytes, int hops, double pieceBytes, double gbps, long lat) {
        return Math.max(Rates.psAtGbps(busiestBytes, gbps) + lat, hops * (Rates.psAtGbps(pieceBytes, gbps) + lat));
    }

    private static double treeBound(int n, double s, double piece, double gbps, long lat) {
        double[] sent = new double[n];
        int height = 0;
        for (int t = 0; t < 2; t++) {
            BinaryTree tree = BinaryTree.nccl(n, t);
            height = Math.max(height, tree.height());
            for (int x = 0; x < n; x++) sent[x] += s / 2 * (tree.children()[x].length + (x == tree.root() ? 0 : 1));
        }
        double busiest = 0;
        for (double b : sent) busiest = Math.max(busiest, b);
        return maxOf(busiest, 2 * height, piece, gbps, lat);
    }

    private static double butterflyBound(Op op, Algorithm alg, int n, double s, double slice, long share0, int k,
                                         double gbps, long lat) {
        int p = Integer.highestOneBit(n);
        int m = Integer.numberOfTrailingZeros(p);
        int phases = op == Op.ALL_REDUCE ? 2 : 1;
        // a share smaller than p leaves empty blocks, and zero-byte transfers emit no flow (§3.9)
        double chain = share0 >= p ? phases * (Rates.psAtGbps(slice * (p - 1) / p, gbps) + m * lat)
                : carryingStepsPs(op, alg, p, share0, k, gbps, lat);
        double busiest = phases * s * (p - 1) / p;
        if (p != n) {
            chain += 2 * (Rates.psAtGbps(slice, gbps) + lat);
            busiest += s;
        }
        return Math.max(Rates.psAtGbps(busiest, gbps) + lat, chain);
    }

    /**
     * The butterfly's chain when some transfers are empty (docs/collectives.md §5): a step counts, at
     * its smallest transfer of channel 0's first piece plus a latency, only when every rank's
     * transfer in it carries bytes. A step with an empty transfer passes dependencies on without a
     * flow, so it may add no hop; the counted steps are on one dependency chain (each rank's next
     * step waits for its previous send).
     */
    private static double carryingStepsPs(Op op, Algorithm alg, int p, long share0, int k, double gbps, long lat) {
        ButterflyAlgorithm.BlockSets sets = new ButterflyAlgorithm.BlockSets(share0, p);
        boolean nearestFirst = alg == Algorithm.RECURSIVE_DOUBLING;
        int mask = op == Op.ALL_GATHER ? p - 1 : 0;
        double chain = 0;
        if (op != Op.ALL_GATHER) {
            for (int d : ButterflyAlgorithm.distances(p, nearestFirst)) {
                long least = Long.MAX_VALUE;
                for (int v = 0; v < p; v++) least = Math.min(least, sets.sliceBytes(mask | d, (v & mask) | ((v ^ d) & d), k, 0));
                if (least > 0) chain += Rates.psAtGbps(least, gbps) + lat;
                mask |= d;
            }
        }
        if (op != Op.REDUCE_SCATTER) {
            for (int d : ButterflyAlgorithm.distances(p, !nearestFirst)) {
                long least = Long.MAX_VALUE;
                for (int v = 0; v < p; v++) least = Math.min(least, sets.sliceBytes(mask, v & mask, k, 0));
                if (least > 0) chain += Rates.psAtGbps(least, gbps) + lat;
                mask &= ~d;
            }
        }
        return chain;
    }

    private static double directBound(Op op, int n, double s, int pieces, double gbps, long lat) {
        return switch (op) {
            case ALL_REDUCE -> Math.max(Rates.psAtGbps(2.0 * (n - 1) / n * s, gbps) + lat,
                    2 * (Rates.psAtGbps((double) (n - 1) / n * s / pieces, gbps) + lat));
            case REDUCE_SCATTER, ALL_GATHER, ALL_TO_ALL -> Rates.psAtGbps((double) (n - 1) / n * s, gbps) + lat;
            case BROADCAST, REDUCE -> Rates.psAtGbps((double) (n - 1) * s, gbps) + lat;
            case SEND_RECV -> Rates.psAtGbps(s, gbps) + lat;
        };
    }
}
