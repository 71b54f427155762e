package lbsim.experiment;

import java.util.SplittableRandom;
import lbsim.BadInputException;
import lbsim.topology.Topology;
import lbsim.workload.collective.Placement;

/**
 * The {@code placement} (and {@code nics_per_server}) keys of a collective or trace workload: which
 * host each rank runs on (docs/collectives.md, "Placement").
 */
final class RankPlacement {
    private final String placement;
    private final int nics;
    private final String file;

    private RankPlacement(String placement, int nics, String file) {
        this.placement = placement;
        this.nics = nics;
        this.file = file;
    }

    static RankPlacement read(Section s) {
        String placement = s.choice("placement", "contiguous", WorkloadSpec.COLLECTIVE_PLACEMENTS);
        int nics = placement.equals("rail") || placement.equals("single-rail") ? s.intValue("nics_per_server", 8, 1, 1 << 16) : 0;
        return new RankPlacement(placement, nics, s.file());
    }

    boolean isRandom() {
        return placement.equals("random");
    }

    /** Hosts on the first host's leaf: the leaf size rail placement lays servers out by. */
    /**
     * Hosts per leaf of {@code topo}, for placing ranks. Rail placement numbers NICs as the generators number
     * hosts, leaf by leaf in blocks of hosts per leaf; a fabric from a file may number them otherwise (server by
     * server), where the placement would put ranks on other NICs than it says: that is refused.
     */
    int hostsPerLeafFor(Topology topo) {
        int perTor = hostsPerLeaf(topo);
        if (!placement.equals("rail")) return perTor;
        for (int h = 0; h < topo.hostCount(); h++) {
            if (topo.hostTor(h) != topo.hostTor(h - h % perTor)) {
                throw new lbsim.BadInputException(file + ": workload.placement: rail needs hosts numbered leaf by leaf, "
                        + perTor + " per leaf (as leaf-spine and fat-tree number them), but host " + topo.nodeName(h)
                        + " is not under the leaf of host " + topo.nodeName(h - h % perTor) + "; on a fabric from a file,"
                        + " list the hosts so that each rank lands where it should and use placement: contiguous");
            }
        }
        return perTor;
    }

    static int hostsPerLeaf(Topology topo) {
        int perTor = 0;
        for (int h = 0; h < topo.hostCount(); h++) if (topo.hostTor(h) == topo.hostTor(0)) perTor++;
        return perTor;
    }

    /** Hosts of {@code total} ranks on a fabric of {@code hosts} hosts ({@code hostsPerLeaf} 0: unknown). */
    int[] place(int total, int hosts, int hostsPerLeaf, SplittableRandom rnd) {
        return switch (placement) {
            case "random" -> Placement.random(total, hosts, rnd);
            case "rail" -> rail(total, hosts, hostsPerLeaf);
            // each rank has its own NIC, so a server's NICs are consecutive hosts (Placement.singleRail)
            case "single-rail" -> {
                wholeServers(total);
                yield Placement.singleRail(total / nics, nics, nics);
            }
            default -> Placement.contiguous(total);
        };
    }

    private void wholeServers(int total) {
        if (total % nics != 0) {
            throw new BadInputException(file + ": workload.nics_per_server: " + total + " ranks are not whole servers of "
                    + nics + " NICs");
        }
    }

    private int[] rail(int total, int hosts, int hostsPerLeaf) {
        if (hostsPerLeaf == 0) throw new BadInputException(file + ": workload.placement: rail needs the topology's hosts per leaf");
        wholeServers(total);
        int[] map = Placement.railOptimised(total / nics, nics, nics, hostsPerLeaf);
        for (int h : map) {
            if (h >= hosts) {
                throw new BadInputException(file + ": workload.placement: rail placement of " + total / nics + " servers x "
                        + nics + " NICs needs host " + h + " but the fabric has " + hosts + " hosts ("
                        + hostsPerLeaf + " per leaf; every rail needs its own leaves)");
            }
        }
        return map;
    }
}
