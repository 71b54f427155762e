package lbsim.experiment;

import lbsim.BadInputException;

import java.util.List;

/**
 * One entry of the scenario's {@code failures} list.
 *
 * @param atUs             when it starts
 * @param link             link name or glob ("leaf0-spine1", "agg*-core0")
 * @param kind             down | degrade | flaky
 * @param detectMs         down: delay before switches reroute (Ethereal §4.2: 100 ms)
 * @param capacityFraction degrade: remaining share of the rate (LAG members lost, McClure §4)
 * @param meanGapUs        flaky: mean time between loss bursts (Poisson; McClure §4: 100 us)
 * @param meanBurstUs      flaky: mean burst duration (exponential; McClure §4: 10 us)
 */
public record FailureSpec(long atUs, String link, String kind, double detectMs, double capacityFraction,
                          double meanGapUs, double meanBurstUs) {

    public static final List<String> KINDS = List.of("down", "degrade", "flaky");

    static FailureSpec from(Section s) {
        String kind = s.choice("kind", "down", KINDS);
        long at = s.longValue("at_us", 0, 0, Long.MAX_VALUE / 1_000_000);
        String link = s.requiredString("link");
        double detect = 0, fraction = 1, gap = 0, burst = 0;
        switch (kind) {
            case "down" -> detect = s.doubleValue("detect_ms", 100, 0, 1e9);
            case "degrade" -> fraction = s.doubleValue("capacity_fraction", 0.5, 1e-6, 1);
            default -> {
                gap = s.doubleValue("mean_gap_us", 100, 1e-6, 1e12);
                burst = s.doubleValue("mean_burst_us", 10, 1e-6, 1e12);
            }
        }
        s.finish();
        return new FailureSpec(at, link, kind, detect, fraction, gap, burst);
    }

    /** The links failures[index] names, or exit 2 naming the file and key when its glob matches none. */
    public int[] links(lbsim.topology.Topology topo, String file, int index) {
        int[] links = topo.linksMatching(link);
        if (links.length == 0) {
            throw new BadInputException(file + ": failures[" + index + "].link: '" + link
                    + "' matches no link (names look like '" + topo.linkName(topo.linkCount() - 1) + "')");
        }
        return links;
    }
}
