package lbsim.plan;

import lbsim.lb.DnlbPorts;

import java.util.List;
import lbsim.BadInputException;

/**
 * Inputs of a DNLB plan (CTCCL paper 003, §3.2-§3.3, Table 1), validated on construction.
 *
 * @param uplinks     {@code nlink_up}: uplinks per leaf, 1..16384 ({@code --uplinks})
 * @param nicsPerLeaf {@code nNIC_leaf}: NICs of the job on each leaf, >= 1 ({@code --nics-per-leaf})
 * @param qps         {@code nqp_per_conn}: QPs per connection (NCCL_IB_QPS_PER_CONNECTION), >= 1 ({@code --qps})
 * @param leaves      number of leaves to configure, >= 1 ({@code --leaves})
 * @param dscp        DSCP value the ACL matches (0..63), or {@code null} to match any DSCP ({@code --dscp})
 * @param nicIps      optional NIC addresses, leaf by leaf ({@code leaves * nicsPerLeaf} of them), each
 *                    {@code a.b.c.d} or {@code a.b.c.d/len} (default /24); Eq. 3's index is the host part
 *                    ({@code --nic-ips}); empty: NIC n has index n
 * @param nextHops    optional PBR next hops, {@code uplinks} of them (same on every leaf) or
 *                    {@code leaves * uplinks} (leaf by leaf) ({@code --next-hops}); empty: placeholders
 */
public record DnlbInput(int uplinks, int nicsPerLeaf, int qps, int leaves, Integer dscp, List<String> nicIps,
        List<String> nextHops) {

    /** Largest number of rows (leaves x NICs x QPs) a plan may have. */
    public static final long MAX_ROWS = 10_000_000L;
    /** Largest QP count per connection accepted: the scheme's. */
    public static final int MAX_QPS = lbsim.lb.Dnlb.MAX_QPS;

    public DnlbInput {
        nicIps = nicIps == null ? List.of() : List.copyOf(nicIps);
        nextHops = nextHops == null ? List.of() : List.copyOf(nextHops);
        DnlbPorts.checkUplinks(uplinks);
        if (nicsPerLeaf < 1) {
            throw new BadInputException("--nics-per-leaf must be an integer >= 1 (NICs of the job on each leaf); got "
                    + nicsPerLeaf);
        }
        if (qps < 1 || qps > MAX_QPS) {
            throw new BadInputException("--qps must be an integer in 1.." + MAX_QPS + " (QPs per connection); got " + qps);
        }
        if (leaves < 1) {
            throw new BadInputException("--leaves must be an integer >= 1; got " + leaves);
        }
        if (dscp != null && (dscp < 0 || dscp > 63)) {
            throw new BadInputException("--dscp must be an integer in 0..63; got " + dscp);
        }
        long rows = (long) leaves * nicsPerLeaf * qps;
        if ((long) leaves * nicsPerLeaf > Integer.MAX_VALUE || rows > MAX_ROWS) {
            throw new BadInputException("--leaves x --nics-per-leaf x --qps must be at most " + MAX_ROWS
                    + " rows; got " + leaves + " x " + nicsPerLeaf + " x " + qps);
        }
        long nics = (long) leaves * nicsPerLeaf;
        if (!nicIps.isEmpty() && nicIps.size() != nics) {
            throw new BadInputException("--nic-ips must list exactly --leaves x --nics-per-leaf = " + nics
                    + " addresses (leaf by leaf); got " + nicIps.size());
        }
        if (!nextHops.isEmpty() && nextHops.size() != uplinks && nextHops.size() != (long) leaves * uplinks) {
            throw new BadInputException("--next-hops must list either --uplinks = " + uplinks
                    + " addresses (used on every leaf) or --leaves x --uplinks = " + (long) leaves * uplinks
                    + " addresses (leaf by leaf); got " + nextHops.size());
        }
    }

    /** A single leaf, any DSCP, NIC indices 0..nicsPerLeaf-1, placeholder next hops. */
    public static DnlbInput of(int uplinks, int nicsPerLeaf, int qps) {
        return new DnlbInput(uplinks, nicsPerLeaf, qps, 1, null, List.of(), List.of());
    }
}
