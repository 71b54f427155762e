package lbsim.experiment;

import lbsim.BadInputException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lbsim.topology.FatTree;
import lbsim.topology.LeafSpine;
import lbsim.topology.Topology;
import lbsim.topology.TopologyBuilder;

/**
 * The scenario's {@code topology} section: fabric shape, link speeds and latencies, buffers
 * and MTU, with per-link overrides for asymmetric fabrics.
 */
public record TopologySpec(String kind, int leaves, int spines, int hostsPerLeaf, int k, int pods, int torsPerPod,
                           int aggsPerPod, int cores, int parallelLinks, double linkGbps, double hostLinkGbps,
                           double uplinkGbps, long linkLatencyNs, long switchBufferBytes, long portBufferBytes,
                           int mtuBytes, List<LinkOverride> overrides, FabricFile fabric) {

    public static final List<String> KINDS = List.of("leaf-spine", "fat-tree", "file", "ns3");
    private static final int MAX_K = 256;

    /** Rate/latency override for links matching a name glob ("leaf*-spine4"). */
    public record LinkOverride(String links, double gbps, long latencyNs) {}

    static TopologySpec from(Section s, Path baseDir) {
        String kind = s.choice("kind", "leaf-spine", KINDS);
        FabricFile fabric = null;
        double linkGbps = 0, hostGbps = 0;
        long latency = 0;
        int parallel = 1;
        if (kind.equals("file") || kind.equals("ns3")) {
            // rates, latencies and bundles come from the file; buffers, MTU and overrides from here
            Path path = InputFiles.resolve(s, "file", baseDir);
            fabric = kind.equals("file") ? FabricFile.read(path) : Ns3Topology.read(path);
        } else {
            linkGbps = s.doubleValue("link_gbps", 100, 1e-3, 1e6);
            hostGbps = s.doubleValue("host_link_gbps", linkGbps, 1e-3, 1e6);
            latency = s.longValue("link_latency_ns", 1000, 0, 1_000_000_000L);
            parallel = s.intValue("parallel_links", 1, 1, 64);
        }
        long buffer = s.longValue("switch_buffer_bytes", 64L << 20, 1, 1L << 40);
        long portBuffer = s.longValue("port_buffer_bytes", 0, 0, 1L << 40);
        int mtu = s.intValue("mtu_bytes", 4096, 64, 1 << 20);
        int leaves = 0, spines = 0, hpl = 0, k = 0, pods = 0, tpp = 0, app = 0, cores = 0;
        double uplink = linkGbps;
        if (fabric != null) {
            hpl = 0;
        } else if (kind.equals("leaf-spine")) {
            leaves = s.intValue("leaves", 8, 1, 100_000);
            spines = s.intValue("spines", 8, 1, 100_000);
            hpl = s.intValue("hosts_per_leaf", 16, 1, 100_000);
            if (s.has("oversubscription") && s.has("uplink_gbps")) {
                throw s.error("oversubscription", "give either uplink_gbps or oversubscription, not both");
            }
            if (s.has("oversubscription")) {
                double ratio = s.doubleValue("oversubscription", 1, 1e-6, 1e6);
                uplink = hostGbps * hpl / (spines * (double) parallel * ratio);
            } else {
                uplink = s.doubleValue("uplink_gbps", linkGbps, 1e-3, 1e6);
            }
        } else {
            k = s.intValue("k", 8, 2, MAX_K);
            if (k % 2 != 0) throw s.error("k", k + " must be even; allowed: an even integer in [2, " + MAX_K + "]");
            pods = s.intValue("pods", k, 1, 100_000);
            tpp = s.intValue("tors_per_pod", k / 2, 1, 100_000);
            app = s.intValue("aggs_per_pod", k / 2, 1, 100_000);
            cores = s.intValue("cores", (k / 2) * (k / 2), 1, 1_000_000);
            hpl = s.intValue("hosts_per_tor", k / 2, 1, 100_000);
            if (cores % app != 0) throw s.error("cores", cores + " must be a multiple of aggs_per_pod (" + app + ")");
        }
        // before anything is built: a fabric the heap cannot hold is refused naming what shrinks it (issue 31)
        long heap = Runtime.getRuntime().maxMemory();
        if (fabric == null && kind.equals("leaf-spine")) {
            FabricSize.leafSpine(leaves, spines, hpl, parallel).check(s, "leaves, spines, hosts_per_leaf, parallel_links", heap);
        } else if (fabric == null) {
            FabricSize.fatTree(pods, tpp, app, cores, hpl, parallel)
                    .check(s, "k, pods, tors_per_pod, aggs_per_pod, cores, hosts_per_tor, parallel_links", heap);
        }
        List<LinkOverride> overrides = new ArrayList<>();
        for (Section o : s.sections("link_overrides")) {
            String links = o.requiredString("links");
            double gbps = o.doubleValue("gbps", -1, -1, 1e6);
            long lat = o.longValue("latency_ns", -1, -1, 1_000_000_000L);
            // as link_gbps: a rate under 1 Mbit/s rounds to 0 bit/s (a packet would never finish serialising)
            if (gbps != -1 && gbps < 1e-3) throw o.error("gbps", gbps + " must be -1 (keep the link's rate) or in [0.001, 1000000]");
            if (gbps < 0 && lat < 0) {
                // -1 (the default of both) keeps the link's own value: an override without either changes nothing
                throw o.error("links", "'" + links + "' is overridden with nothing; an override needs gbps or latency_ns (or both),"
                        + " e.g. {links: \"" + links + "\", gbps: 50}");
            }
            o.finish();
            overrides.add(new LinkOverride(links, gbps, lat));
        }
        s.finish();
        return new TopologySpec(kind, leaves, spines, hpl, k, pods, tpp, app, cores, parallel, linkGbps, hostGbps, uplink,
                latency, buffer, portBuffer, mtu, overrides, fabric);
    }

    static long bps(double gbps) {
        return Math.round(gbps * 1e9);
    }

    /** Builds the fabric; overrides that match no link are an error. */
    public Topology build(String file) {
        TopologyBuilder b;
        long latPs = linkLatencyNs * 1000;
        try {
            b = fabric != null ? fabric.builder() : kind.equals("leaf-spine")
                    ? LeafSpine.builder(leaves, spines, hostsPerLeaf, parallelLinks, bps(hostLinkGbps), bps(uplinkGbps), latPs)
                    : FatTree.builder(pods, torsPerPod, aggsPerPod, cores, hostsPerLeaf, parallelLinks, bps(hostLinkGbps),
                    bps(linkGbps), latPs);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(file + ": topology: " + e.getMessage());
        }
        Topology plain = b.build();
        for (int i = 0; i < overrides.size(); i++) {
            LinkOverride o = overrides.get(i);
            int[] links = plain.linksMatching(o.links());
            if (links.length == 0) {
                throw new BadInputException(file + ": topology.link_overrides[" + i + "].links: '" + o.links()
                        + "' matches no link (links are named like '" + plain.linkName(plain.linkCount() - 1) + "')");
            }
            for (int l : links) {
                long[] spec = b.linkSpec(l);
                b.overrideLink(l, o.gbps() > 0 ? bps(o.gbps()) : spec[0], o.latencyNs() >= 0 ? o.latencyNs() * 1000 : spec[1]);
            }
        }
        return overrides.isEmpty() ? plain : b.build();
    }

    /** Hosts this fabric will have (without building it). */
    public int hostCount() {
        if (fabric != null) return fabric.hostCount();
        // within an int: FabricSize refused larger fabrics when the section was read
        return Math.toIntExact(kind.equals("leaf-spine") ? (long) leaves * hostsPerLeaf : (long) pods * torsPerPod * hostsPerLeaf);
    }
}
