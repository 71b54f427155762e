package lbsim.lb;

import lbsim.BadInputException;

/**
 * DNLB's source-port arithmetic (Li et al., "CTCCL: Cost-Efficient Joint Device-Network Load Balancing",
 * ICS '25, Sec. 3.2 Eqs. 1-4): which UDP source port each QP takes and which leaf uplink a port's range
 * pins it to. The {@code dnlb} scheme and {@code lbsim plan dnlb} both use it.
 *
 * <p>Port ranges when {@code uplinks} does not divide 16384: Eq. 1's step {@code 16384 / U} is kept as an
 * exact rational and range boundaries are rounded down, so range {@code n} is
 * {@code [0xC000 + floor(n*16384/U), 0xC000 + floor((n+1)*16384/U) - 1]}; for U a power of two (the
 * paper's case) this is the paper's formulas verbatim.
 */
public final class DnlbPorts {
    private DnlbPorts() {}

    /** Lowest RoCEv2 UDP source port (CTCCL §3.2). */
    public static final int PORT_MIN = 0xC000;
    /** Highest RoCEv2 UDP source port (CTCCL §3.2). */
    public static final int PORT_MAX = 0xFFFF;
    /** Number of usable source ports, 0xFFFF - 0xC000 + 1 = 16384. */
    public static final int PORT_SPAN = PORT_MAX - PORT_MIN + 1;
    /** Most uplinks a leaf can have with at least one port per range. */
    public static final int MAX_UPLINKS = PORT_SPAN;

    /** Refuses an uplink count outside 1..MAX_UPLINKS (each range needs at least one port). */
    public static void checkUplinks(int uplinks) {
        if (uplinks < 1 || uplinks > MAX_UPLINKS) {
            throw new BadInputException("--uplinks must be an integer in 1.." + MAX_UPLINKS
                    + " (one source-port range of [0xC000, 0xFFFF] per uplink); got " + uplinks);
        }
    }

    /** CTCCL §3.2 Eq. 1: {@code step = (0xFFFF - 0xC000 + 1) / nlink_up}, exact (fractional if U does not divide 16384). */
    public static double step(int uplinks) {
        checkUplinks(uplinks);
        return (double) PORT_SPAN / uplinks;
    }

    /** First port of uplink {@code n}'s range: CTCCL §3.2 Eq. 2 lower end, {@code 0xC000 + floor(n * 16384 / U)}. */
    public static int rangeFirst(int uplink, int uplinks) {
        checkUplink(uplink, uplinks);
        return boundary(uplink, uplinks);
    }

    /** Last port of uplink {@code n}'s range (inclusive): one below the next range's first port. */
    public static int rangeLast(int uplink, int uplinks) {
        checkUplink(uplink, uplinks);
        return boundary(uplink + 1, uplinks) - 1;
    }

    /** The uplink (0-based) whose range contains {@code sport}: what the leaf's PBR does. */
    public static int uplinkOf(int sport, int uplinks) {
        checkUplinks(uplinks);
        if (sport < PORT_MIN || sport > PORT_MAX) {
            throw new BadInputException("sport must be a RoCEv2 source port in " + PORT_MIN + ".." + PORT_MAX
                    + " (0xC000..0xFFFF); got " + sport);
        }
        long offset = sport - PORT_MIN;
        // largest n with floor(n*S/U) <= offset  <=>  n = floor(((offset+1)*U - 1) / S)
        return (int) (((offset + 1) * uplinks - 1) / PORT_SPAN);
    }

    /** The uplink a QP is meant for: {@code (index * nqp + q) mod nlink_up} (CTCCL §3.2 Eq. 3 divided by step). */
    public static int intendedUplink(long nicIndex, int qp, int qpsPerConnection, int uplinks) {
        checkQp(nicIndex, qp, qpsPerConnection, uplinks);
        long k = Math.floorMod(nicIndex, uplinks) * (long) Math.floorMod(qpsPerConnection, uplinks) + qp;
        return (int) Math.floorMod(k, (long) uplinks);
    }

    /**
     * CTCCL §3.2 Eq. 3: {@code sport = 0xC000 + ((index * nqp + q) * step) mod (0xFFFF - 0xC000 + 1)}, in exact
     * arithmetic; always the first port of the range of {@link #intendedUplink}.
     *
     * @param nicIndex         Eq. 3's index: the host part of the NIC's IP address (>= 0)
     * @param qp               QP index within the connection, 0 <= qp < qpsPerConnection
     * @param qpsPerConnection nqp_per_conn (>= 1)
     * @param uplinks          nlink_up (1..16384)
     */
    public static int sourcePort(long nicIndex, int qp, int qpsPerConnection, int uplinks) {
        int n = intendedUplink(nicIndex, qp, qpsPerConnection, uplinks);
        return boundary(n, uplinks);
    }

    /** CTCCL §3.3 Eq. 4: {@code nNIC_leaf * nqp_per_conn >= nlink_up}. */
    public static boolean eq4Satisfied(int nicsPerLeaf, int qpsPerConnection, int uplinks) {
        return (long) nicsPerLeaf * qpsPerConnection >= uplinks;
    }

    private static int boundary(int n, int uplinks) {
        return PORT_MIN + (int) ((long) n * PORT_SPAN / uplinks);
    }

    private static void checkUplink(int uplink, int uplinks) {
        checkUplinks(uplinks);
        if (uplink < 0 || uplink >= uplinks) {
            throw new BadInputException("uplink must be in 0.." + (uplinks - 1) + "; got " + uplink);
        }
    }

    private static void checkQp(long nicIndex, int qp, int qpsPerConnection, int uplinks) {
        checkUplinks(uplinks);
        if (qpsPerConnection < 1) {
            throw new BadInputException("--qps must be an integer >= 1; got " + qpsPerConnection);
        }
        if (qp < 0 || qp >= qpsPerConnection) {
            throw new BadInputException("qp must be in 0.." + (qpsPerConnection - 1) + "; got " + qp);
        }
        if (nicIndex < 0) {
            throw new BadInputException("NIC index must be >= 0; got " + nicIndex);
        }
    }

    /**
     * Eq. 4 only ensures every uplink gets a QP; with {@code nics * qps} not a multiple of the uplinks some get one
     * more than others (4 NICs x 3 QPs over 8 uplinks: 2 and 1), and with equal traffic per QP those carry
     * proportionally more. The warning for such a per-uplink QP count, or null when it is even or some uplink has none.
     */
    public static String unevenWarning(int[] qpsPerUplink, int nics, int qps) {
        int min = Integer.MAX_VALUE, max = 0;
        for (int c : qpsPerUplink) {
            min = Math.min(min, c);
            max = Math.max(max, c);
        }
        if (min == 0 || min == max) return null;
        int u = qpsPerUplink.length;
        int step = u / gcd(u, nics); // nics * q is a multiple of u iff q is a multiple of u / gcd(u, nics)
        int even = ((qps + step - 1) / step) * step;
        return "QPs per uplink are uneven (" + min + " to " + max + "), so with equal traffic per QP the busiest uplinks carry "
                + max + "/" + min + " times the load of the least busy; nNIC_leaf * qps = " + nics + " * " + qps
                + " is not a multiple of the " + u + " uplinks (qps = " + even + " would be)";
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
