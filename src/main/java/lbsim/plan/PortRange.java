package lbsim.plan;

/**
 * One uplink's UDP source-port range on a DNLB leaf (CTCCL paper 003, §3.2 Eq. 2), inclusive at both
 * ends. {@code uplink} is Eq. 2's {@code n}, 0-based; the leaf configuration names it ACL
 * {@code udf(n+1)}.
 */
public record PortRange(int uplink, int first, int last) {

    public PortRange {
        if (first > last) {
            throw new IllegalArgumentException("empty port range " + first + ".." + last);
        }
    }

    /** Number of ports in the range. */
    public int size() {
        return last - first + 1;
    }

    public boolean contains(int port) {
        return port >= first && port <= last;
    }

    /** The ACL name used in the leaf configuration, as in the paper's §4.1 example ({@code udf1}...). */
    public String aclName() {
        return "udf" + (uplink + 1);
    }
}
