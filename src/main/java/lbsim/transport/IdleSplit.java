package lbsim.transport;

import java.util.Arrays;

/**
 * How a scheme sends one flow alone on an idle fabric: the reference of the flow's FCT
 * slowdown ({@code metrics/IdleFct}). The flow leaves as {@code streams}, each a QP, or a QP
 * slot that sends several messages one after another (ParaLet's flowlets); each message is
 * cut into MTU packets, its last one shorter, as {@link QueuePair} does. The NIC serves the
 * streams round-robin, a packet at a time, in list order.
 *
 * @param streams per stream, the sizes in bytes of the messages it sends, in order
 * @param capBps  pacing rate of every stream (ParaLet's 1/m of line rate); 0 = none
 * @param sprayed whether a stream's packets may take different paths (packet spraying)
 *                rather than all following the stream's one path
 */
public record IdleSplit(long[][] streams, long capBps, boolean sprayed) {
    public IdleSplit {
        if (streams.length == 0) throw new IllegalArgumentException("a flow has at least one stream");
        if (capBps < 0) throw new IllegalArgumentException("capBps must be >= 0: " + capBps);
    }

    /** The flow's bytes as evenly as possible over {@code qps} QPs, as {@link Transport#openQps} splits them. */
    public static IdleSplit evenly(long sizeBytes, int qps) {
        long[] shares = Transport.evenShares(sizeBytes, qps);
        long[][] s = new long[shares.length][];
        for (int i = 0; i < s.length; i++) s[i] = new long[] {shares[i]};
        return new IdleSplit(s, 0, false);
    }

    /** One QP per piece, in this order. */
    public static IdleSplit qps(long... bytes) {
        long[][] s = new long[bytes.length][];
        for (int i = 0; i < s.length; i++) s[i] = new long[] {bytes[i]};
        return new IdleSplit(s, 0, false);
    }

    /** The same split with its packets sprayed over paths. */
    public IdleSplit withSpraying() {
        return new IdleSplit(streams, capBps, true);
    }

    /** One unpaced QP carrying the whole flow on one path: the plain lone-flow case. */
    public boolean isSingleQp() {
        return streams.length == 1 && streams[0].length == 1 && capBps == 0 && !sprayed;
    }

    public long totalBytes() {
        long b = 0;
        for (long[] s : streams) for (long m : s) b += m;
        return b;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IdleSplit x && capBps == x.capBps && sprayed == x.sprayed && Arrays.deepEquals(streams, x.streams);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(streams) * 31 + Long.hashCode(capBps) * 2 + (sprayed ? 1 : 0);
    }

    @Override
    public String toString() {
        return "IdleSplit" + Arrays.deepToString(streams) + (capBps > 0 ? " capped at " + capBps + " bps" : "")
                + (sprayed ? " sprayed" : "");
    }
}
