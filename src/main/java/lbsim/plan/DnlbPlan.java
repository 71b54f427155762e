package lbsim.plan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import lbsim.BadInputException;
import lbsim.lb.DnlbPorts;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * CTCCL / DNLB plan (Li et al., "CTCCL: Cost-Efficient Joint Device-Network Load Balancing", ICS '25;
 * §3.2 Eqs. 1-4, §3.3, §4.1): the UDP source port of every QP and the
 * leaf ACL + policy-based-routing configuration that pins each source-port range to one uplink.
 *
 * <p>The static methods are the API the simulator's DNLB scheme calls; {@link #compute(DnlbInput)} builds
 * a whole deployable plan.
 *
 * <p>Port ranges when {@code uplinks} does not divide 16384: Eq. 1's step {@code 16384 / U} is kept as an
 * exact rational and range boundaries are rounded down, so range {@code n} is
 * {@code [0xC000 + floor(n*16384/U), 0xC000 + floor((n+1)*16384/U) - 1]}. The ranges tile
 * [0xC000, 0xFFFF] exactly; their sizes differ by at most one port (the {@code 16384 mod U} larger ranges
 * are spread evenly, not bunched at one end). Eq. 3 is evaluated in the same exact arithmetic,
 * {@code sport = 0xC000 + floor(k*16384/U) mod 16384} with {@code k = index*nqp + q}, which is the first
 * port of range {@code k mod U}. For U a power of two (the paper's case) everything equals the paper's
 * formulas verbatim.
 */
public final class DnlbPlan implements Plan {
    /** RoCEv2 UDP destination port matched by the ACLs. */
    public static final int ROCE_V2_PORT = 4791;
    /** Name of the route-map in the generated configuration (as in the paper's §4.1 example). */
    public static final String ROUTE_MAP = "udf";

    private static final String SOURCE = "DNLB: Li et al., \"CTCCL: Cost-Efficient Joint Device-Network Load Balancing\", ICS '25, "
            + "Sec. 3.2 Eqs. 1-4, Sec. 3.3, Sec. 4.1";

    /** A NIC of a leaf. {@code index} is Eq. 3's index; {@code ip} is null when no addresses were given. */
    public record Nic(int nic, long index, String ip) {
    }

    /**
     * One leaf: its NICs, how many of its QPs each uplink receives, and the PBR next hop of each uplink
     * ({@code null} entries when no next hops were given).
     */
    public record Leaf(int leaf, List<Nic> nics, List<Integer> qpsPerUplink, List<String> nextHops) {
        public Leaf {
            nics = List.copyOf(nics);
            qpsPerUplink = List.copyOf(qpsPerUplink);
            nextHops = java.util.Collections.unmodifiableList(new ArrayList<>(nextHops));
        }
    }

    private final DnlbInput input;
    private final List<PortRange> ranges;
    private final List<Leaf> leaves;
    private final List<QpAssignment> rows;
    private final List<String> warnings;
    private final List<String> notes;

    private DnlbPlan(DnlbInput input, List<PortRange> ranges, List<Leaf> leaves, List<String> warnings, List<String> notes) {
        this.input = input;
        this.ranges = List.copyOf(ranges);
        this.leaves = List.copyOf(leaves);
        this.rows = new Rows();
        this.warnings = List.copyOf(warnings);
        this.notes = List.copyOf(notes);
    }

    // ------------------------------------------------------------------ port ranges (the arithmetic is DnlbPorts)

    /** The range of uplink {@code n} (CTCCL §3.2 Eq. 2). */
    public static PortRange range(int uplink, int uplinks) {
        return new PortRange(uplink, DnlbPorts.rangeFirst(uplink, uplinks), DnlbPorts.rangeLast(uplink, uplinks));
    }

    /** All {@code uplinks} ranges, in uplink order; they tile [0xC000, 0xFFFF] exactly. */
    public static List<PortRange> ranges(int uplinks) {
        DnlbPorts.checkUplinks(uplinks);
        List<PortRange> list = new ArrayList<>(uplinks);
        for (int n = 0; n < uplinks; n++) {
            list.add(new PortRange(n, DnlbPorts.rangeFirst(n, uplinks), DnlbPorts.rangeLast(n, uplinks)));
        }
        return List.copyOf(list);
    }

    // ------------------------------------------------------------------ whole plan

    /** Builds the plan for every leaf: ranges, per-QP ports, per-leaf configuration data and warnings. */
    public static DnlbPlan compute(DnlbInput in) {
        int u = in.uplinks();
        List<PortRange> ranges = ranges(u);
        List<String> warnings = new ArrayList<>();
        List<String> notes = new ArrayList<>();

        List<Ipv4> ips = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (String s : in.nicIps()) {
            Ipv4 ip = Ipv4.parse(s, "--nic-ips", true, Ipv4.DEFAULT_NIC_PREFIX);
            if (!seen.add(ip.address())) {
                throw new BadInputException("--nic-ips: address " + ip.dotted() + " is listed twice; NIC addresses must be distinct");
            }
            ips.add(ip);
        }
        List<String> hops = new ArrayList<>();
        for (String s : in.nextHops()) {
            hops.add(Ipv4.parse(s, "--next-hops", false, 32).dotted());
        }

        boolean eq4 = DnlbPorts.eq4Satisfied(in.nicsPerLeaf(), in.qps(), u);
        if (!eq4) {
            long have = (long) in.nicsPerLeaf() * in.qps();
            int needQps = (u + in.nicsPerLeaf() - 1) / in.nicsPerLeaf();
            warnings.add("Eq. 4 not satisfied: nNIC_leaf * nqp_per_conn = " + in.nicsPerLeaf() + " * " + in.qps()
                    + " = " + have + " < nlink_up = " + u + "; each leaf sends this job's traffic on at most " + have
                    + " of its " + u + " uplinks and the others stay idle (CTCCL Sec. 3.3 requires"
                    + " nNIC_leaf * nqp_per_conn >= nlink_up). Use --qps " + needQps + " or more.");
        }

        List<Leaf> leaves = new ArrayList<>(in.leaves());
        boolean sharedPortsWithinNic = in.qps() > u;
        for (int l = 0; l < in.leaves(); l++) {
            List<Nic> nics = new ArrayList<>(in.nicsPerLeaf());
            int[] perUplink = new int[u];
            boolean consecutive = true;
            for (int j = 0; j < in.nicsPerLeaf(); j++) {
                int nic = l * in.nicsPerLeaf() + j;
                Ipv4 ip = ips.isEmpty() ? null : ips.get(nic);
                long index = ip == null ? nic : ip.hostPart();
                if (j > 0 && index != nics.get(j - 1).index() + 1) {
                    consecutive = false;
                }
                nics.add(new Nic(nic, index, ip == null ? null : ip.dotted()));
                for (int q = 0; q < in.qps(); q++) {
                    perUplink[DnlbPorts.uplinkOf(DnlbPorts.sourcePort(index, q, in.qps(), u), u)]++; // the rows are computed when read (Rows)
                }
            }
            List<Integer> counts = new ArrayList<>(u);
            StringJoiner idle = new StringJoiner(", ");
            for (int n = 0; n < u; n++) {
                counts.add(perUplink[n]);
                if (perUplink[n] == 0) {
                    idle.add(ranges.get(n).aclName());
                }
            }
            if (!consecutive) {
                warnings.add("leaf " + l + ": the NIC indices (host parts of --nic-ips) are not a continuously"
                        + " increasing sequence, which CTCCL Sec. 3.3 requires for even uplink use");
            }
            if (eq4 && idle.length() > 0) {
                warnings.add("leaf " + l + ": uplinks " + idle + " receive no QP of this job");
            }
            String uneven = DnlbPorts.unevenWarning(perUplink, in.nicsPerLeaf(), in.qps());
            if (eq4 && idle.length() == 0 && uneven != null) warnings.add("leaf " + l + ": " + uneven);
            List<String> leafHops = new ArrayList<>(u);
            for (int n = 0; n < u; n++) {
                leafHops.add(hops.isEmpty() ? null : hops.size() == u ? hops.get(n) : hops.get(l * u + n));
            }
            leaves.add(new Leaf(l, nics, counts, leafHops));
        }

        if (DnlbPorts.PORT_SPAN % u != 0) {
            int small = DnlbPorts.PORT_SPAN / u;
            int big = DnlbPorts.PORT_SPAN % u;
            notes.add("16384 ports do not divide evenly into " + u + " ranges: boundaries are 0xC000 + floor(n * 16384 / "
                    + u + "), so " + big + " ranges have " + (small + 1) + " ports and " + (u - big) + " have " + small
                    + "; each QP's port is the first port of its uplink's range");
        }
        if (sharedPortsWithinNic) {
            notes.add("--qps " + in.qps() + " > --uplinks " + u + ": Eq. 3 gives QPs q and q + " + u
                    + " of a NIC the same source port (same uplink); they remain distinct QPs");
        }
        if (hops.isEmpty()) {
            notes.add("next hops are placeholders <leafL-uplinkN-next-hop>; pass --next-hops to fill them in");
        }
        if (in.dscp() == null) {
            notes.add("no --dscp: the ACLs match all RoCEv2 traffic; CTCCL marks its flows with a DSCP so that other"
                    + " traffic keeps using ECMP (Sec. 3.1)");
        }
        notes.add("apply the route-map to the leaf's host-facing interfaces (e.g. 'ip policy route-map "
                + ROUTE_MAP + "')");
        return new DnlbPlan(in, ranges, leaves, warnings, notes);
    }

    // ------------------------------------------------------------------ accessors

    public DnlbInput input() {
        return input;
    }

    /** The per-uplink port ranges (Eq. 2). */
    public List<PortRange> portRanges() {
        return ranges;
    }

    public List<Leaf> leaves() {
        return leaves;
    }

    /**
     * The rows as a view computed on access (Eq. 3 from the NIC's index): up to {@link DnlbInput#MAX_ROWS} of them would
     * not fit in memory as objects, let alone as a JSON tree.
     */
    private final class Rows extends java.util.AbstractList<QpAssignment> implements java.util.RandomAccess {
        @Override
        public QpAssignment get(int i) {
            java.util.Objects.checkIndex(i, size());
            int qps = input.qps();
            int nic = i / qps;
            int q = i % qps;
            int leaf = nic / input.nicsPerLeaf();
            Nic n = leaves.get(leaf).nics().get(nic % input.nicsPerLeaf());
            int sport = DnlbPorts.sourcePort(n.index(), q, qps, input.uplinks());
            return new QpAssignment(leaf, nic, n.index(), n.ip(), q, sport, DnlbPorts.uplinkOf(sport, input.uplinks()));
        }

        @Override
        public int size() {
            return (int) ((long) input.leaves() * input.nicsPerLeaf() * input.qps()); // <= MAX_ROWS
        }
    }

    /** One row per (leaf, NIC, QP), leaf by leaf, NIC by NIC, QP by QP (computed when read). */
    public List<QpAssignment> rows() {
        return rows;
    }

    @Override
    public String kind() {
        return "dnlb";
    }

    @Override
    public List<String> warnings() {
        return warnings;
    }

    public List<String> notes() {
        return notes;
    }

    /** The ACL line of one range, as in the paper's §4.1 example. */
    public String aclLine(PortRange r) {
        String ports = r.first() == r.last() ? "eq " + r.first() : "range " + r.first() + " " + r.last();
        return "10 permit udp any " + ports + " any eq " + ROCE_V2_PORT
                + (input.dscp() == null ? "" : " dscp " + input.dscp());
    }

    /** The switch configuration (ACL + PBR) of one leaf, in the style of the paper's §4.1. */
    public String leafConfig(int leaf) {
        if (leaf < 0 || leaf >= leaves.size()) {
            throw new BadInputException("leaf must be in 0.." + (leaves.size() - 1) + "; got " + leaf);
        }
        Leaf lf = leaves.get(leaf);
        StringBuilder sb = new StringBuilder();
        sb.append("! <ACL>\n");
        for (PortRange r : ranges) {
            sb.append("ip access-list extended ").append(r.aclName()).append('\n');
            sb.append("  ").append(aclLine(r)).append('\n');
        }
        sb.append("! <PBR>\n");
        for (PortRange r : ranges) {
            String hop = lf.nextHops().get(r.uplink());
            sb.append("route-map ").append(ROUTE_MAP).append(" permit ").append(10 * (r.uplink() + 1)).append('\n');
            sb.append("  match ip address ").append(r.aclName()).append('\n');
            sb.append("  set ip next-hop ")
                    .append(hop == null ? "<leaf" + leaf + "-uplink" + r.uplink() + "-next-hop>" : hop).append('\n');
            sb.append("!\n");
        }
        return sb.toString();
    }

    @Override
    public String render(PlanFormat format) {
        java.io.StringWriter out = new java.io.StringWriter();
        render(format, out);
        return out.toString();
    }

    /** Writes the plan row by row, so that memory stays bounded however many rows there are (up to MAX_ROWS). */
    @Override
    public void render(PlanFormat format, java.io.Writer out) {
        try {
            switch (format) {
                case TEXT -> text(out);
                case JSON -> json(out);
                case CSV -> csv(out);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void text(java.io.Writer out) throws java.io.IOException {
        DnlbInput in = input;
        int u = in.uplinks();
        StringBuilder sb = new StringBuilder();
        sb.append("! lbsim plan dnlb: leaf ACL + PBR and CTCCL source ports (").append(SOURCE).append(")\n");
        sb.append("! nlink_up (uplinks) = ").append(u).append(", nNIC_leaf = ").append(in.nicsPerLeaf())
                .append(", nqp_per_conn = ").append(in.qps()).append(", leaves = ").append(in.leaves())
                .append(", DSCP = ").append(in.dscp() == null ? "any" : in.dscp().toString()).append('\n');
        sb.append("! Eq. 1: step = (0xFFFF - 0xC000 + 1) / ").append(u).append(" = ")
                .append(PlanRendering.num(DnlbPorts.step(u))).append(" ports\n");
        boolean eq4 = DnlbPorts.eq4Satisfied(in.nicsPerLeaf(), in.qps(), u);
        sb.append("! Eq. 4: nNIC_leaf * nqp_per_conn = ").append(in.nicsPerLeaf()).append(" * ").append(in.qps())
                .append(" = ").append((long) in.nicsPerLeaf() * in.qps()).append(eq4 ? " >= " : " < ")
                .append("nlink_up = ").append(u).append(eq4 ? ": satisfied" : ": NOT satisfied")
                .append(eq4 && !warnings.isEmpty() ? ", but see the warnings below\n" : "\n");
        for (String w : warnings) {
            sb.append("! WARNING: ").append(w).append('\n');
        }
        for (String n : notes) {
            sb.append("! note: ").append(n).append('\n');
        }
        for (Leaf lf : leaves) {
            out.append(sb);
            sb.setLength(0);
            sb.append("!\n! ===== leaf ").append(lf.leaf()).append(" =====\n");
            sb.append(leafConfig(lf.leaf()));
            sb.append("! CTCCL source ports (Eq. 3), qpQ sport(ACL):\n");
            for (Nic nic : lf.nics()) {
                sb.append("! nic ").append(nic.nic()).append(" (index ").append(nic.index());
                if (nic.ip() != null) {
                    sb.append(", ").append(nic.ip());
                }
                sb.append("):");
                for (int q = 0; q < in.qps(); q++) {
                    QpAssignment row = rows.get(nic.nic() * in.qps() + q);
                    sb.append(" qp").append(q).append(' ').append(row.sport()).append('(')
                            .append(ranges.get(row.uplink()).aclName()).append(')');
                }
                sb.append('\n');
                out.append(sb);
                sb.setLength(0);
            }
            sb.append("! QPs per uplink:");
            for (int n = 0; n < u; n++) {
                sb.append(' ').append(ranges.get(n).aclName()).append('=').append(lf.qpsPerUplink().get(n));
            }
            sb.append('\n');
        }
        out.append(sb);
    }

    private void json(java.io.Writer out) {
        ObjectNode root = PlanRendering.root(kind(), SOURCE);
        ObjectNode inputs = root.putObject("inputs");
        inputs.put("uplinks", input.uplinks());
        inputs.put("nics_per_leaf", input.nicsPerLeaf());
        inputs.put("qps", input.qps());
        inputs.put("leaves", input.leaves());
        if (input.dscp() == null) {
            inputs.putNull("dscp");
        } else {
            inputs.put("dscp", input.dscp().intValue());
        }
        inputs.put("roce_port", ROCE_V2_PORT);
        root.put("step", DnlbPorts.step(input.uplinks()));
        ObjectNode eq4 = root.putObject("eq4");
        eq4.put("nics_per_leaf_times_qps", (long) input.nicsPerLeaf() * input.qps());
        eq4.put("uplinks", input.uplinks());
        eq4.put("satisfied", DnlbPorts.eq4Satisfied(input.nicsPerLeaf(), input.qps(), input.uplinks()));
        ArrayNode rangeArray = root.putArray("ranges");
        for (PortRange r : ranges) {
            ObjectNode o = rangeArray.addObject();
            o.put("uplink", r.uplink());
            o.put("acl", r.aclName());
            o.put("first", r.first());
            o.put("last", r.last());
            o.put("size", r.size());
        }
        ArrayNode leafArray = root.putArray("leaves");
        for (Leaf lf : leaves) {
            ObjectNode o = leafArray.addObject();
            o.put("leaf", lf.leaf());
            ArrayNode nics = o.putArray("nics");
            for (Nic nic : lf.nics()) {
                ObjectNode n = nics.addObject();
                n.put("nic", nic.nic());
                n.put("nic_index", nic.index());
                n.put("ip", nic.ip());
            }
            ArrayNode counts = o.putArray("qps_per_uplink");
            lf.qpsPerUplink().forEach(counts::add);
            ArrayNode hops = o.putArray("next_hops");
            lf.nextHops().forEach(hops::add);
        }
        ObjectNode tail = PlanRendering.object();
        PlanRendering.putStrings(tail, "warnings", warnings);
        PlanRendering.putStrings(tail, "notes", notes);
        // the rows streamed between the other fields: the same bytes as one tree, without the tree
        PlanRendering.json(out, root, "rows", rows, (g, r) -> {
            g.writeStartObject();
            g.writeNumberProperty("nic", r.nic());
            g.writeNumberProperty("qp", r.qp());
            g.writeNumberProperty("sport", r.sport());
            g.writeNumberProperty("uplink", r.uplink());
            g.writeNumberProperty("leaf", r.leaf());
            g.writeNumberProperty("nic_index", r.nicIndex());
            if (r.ip() == null) {
                g.writeNullProperty("ip");
            } else {
                g.writeStringProperty("ip", r.ip());
            }
            g.writeEndObject();
        }, tail);
    }

    /** CSV columns of {@code --format csv}. */
    public static final List<String> CSV_COLUMNS = List.of("nic", "qp", "sport", "uplink", "leaf", "nic_index", "ip");

    private void csv(java.io.Writer out) {
        PlanRendering.csv(out, CSV_COLUMNS, rows, r -> List.of(Integer.toString(r.nic()), Integer.toString(r.qp()),
                Integer.toString(r.sport()), Integer.toString(r.uplink()), Integer.toString(r.leaf()), Long.toString(r.nicIndex()),
                r.ip() == null ? "" : r.ip()));
    }
}
