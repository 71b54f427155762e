package lbsim.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lbsim.BadInputException;
import lbsim.topology.CustomFabric;
import lbsim.topology.Hostlist;
import lbsim.topology.Tier;
import lbsim.topology.Topology;

/**
 * Slurm's {@code topology.conf} for the tree plugin ({@code lbsim topology import-slurm}): one line
 * per switch, {@code SwitchName=NAME} with its children as {@code Nodes=HOSTLIST} and/or
 * {@code Switches=HOSTLIST}, an optional {@code LinkSpeed=N}; parameter names are case-insensitive
 * and {@code #} starts a comment (Slurm topology.conf(5)). Slurm records only the hierarchy: every
 * parent-child pair becomes {@code parallel} links of the given rate and latency. Hosts are numbered
 * in the order the file lists them, switches in line order, switch links ordered by child then parent.
 */
public final class SlurmTopology {
    private SlurmTopology() {}

    /** Link properties Slurm does not record: rates and latency per link, links per switch pair. */
    public record LinkOptions(double hostGbps, double switchGbps, double latencyNs, int parallel) {}

    private static final String EXPECTED = "expected 'SwitchName=NAME' followed by Nodes=HOSTLIST and/or Switches=HOSTLIST"
            + " (and optionally LinkSpeed=N), e.g. 'SwitchName=leaf1 Nodes=node[01-16]'";

    /** A parsed switch line. */
    private record SwitchLine(int line, String name, List<String> nodes, List<String> switches) {}

    /** Reads the file and returns the fabric it describes. */
    public static Topology read(Path file, LinkOptions o) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new BadInputException(file + ": cannot read Slurm topology file (" + e.getMessage() + ")");
        }
        return parse(file.toString(), lines, o);
    }

    static Topology parse(String src, List<String> lines, LinkOptions o) {
        Map<String, SwitchLine> switches = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String at = src + ": line " + (i + 1) + ": ";
            String t = lines.get(i);
            int hash = t.indexOf('#');
            if (hash >= 0) t = t.substring(0, hash);
            t = t.trim();
            if (t.isEmpty()) continue;
            String name = null;
            List<String> nodes = new ArrayList<>(), children = new ArrayList<>();
            for (String field : t.split("\\s+")) {
                int eq = field.indexOf('=');
                if (eq <= 0 || eq == field.length() - 1) throw new BadInputException(at + "'" + field + "' is not KEY=VALUE; " + EXPECTED);
                String key = field.substring(0, eq).toLowerCase(Locale.ROOT);
                String value = field.substring(eq + 1);
                try {
                    switch (key) {
                        case "switchname" -> {
                            if (name != null) throw new BadInputException(at + "SwitchName given twice; " + EXPECTED);
                            List<String> one = Hostlist.expand(value);
                            if (one.size() != 1) throw new BadInputException(at + "SwitchName=" + value + " names " + one.size()
                                    + " switches; one line describes one switch");
                            name = one.get(0);
                        }
                        case "nodes" -> nodes.addAll(Hostlist.expand(value));
                        case "switches" -> children.addAll(Hostlist.expand(value));
                        case "linkspeed" -> {
                            // relative units that Slurm itself does not use (topology.conf(5)); rates come from the options
                            if (!value.matches("[0-9]+")) throw new BadInputException(at + "LinkSpeed=" + value + ": expected a whole number");
                        }
                        case "blockname", "blocksizes" -> throw new BadInputException(at + field.substring(0, eq)
                                + ": the topology/block plugin's blocks are not a switch tree; lbsim reads topology/tree files ("
                                + EXPECTED + ")");
                        default -> throw new BadInputException(at + "unknown parameter '" + field.substring(0, eq) + "'; " + EXPECTED);
                    }
                } catch (IllegalArgumentException e) {
                    throw new BadInputException(at + field.substring(0, eq) + ": " + e.getMessage());
                }
            }
            if (name == null) throw new BadInputException(at + "no SwitchName; " + EXPECTED);
            if (nodes.isEmpty() && children.isEmpty()) throw new BadInputException(at + "switch " + name + " has no Nodes= or Switches=; " + EXPECTED);
            SwitchLine prev = switches.put(name, new SwitchLine(i + 1, name, nodes, children));
            if (prev != null) throw new BadInputException(at + "switch " + name + " was already described on line " + prev.line());
        }
        if (switches.isEmpty()) throw new BadInputException(src + ": no SwitchName lines; " + EXPECTED);
        return fabric(src, switches, o);
    }

    private static Topology fabric(String src, Map<String, SwitchLine> switches, LinkOptions o) {
        Map<String, Integer> hostIndex = new LinkedHashMap<>();
        Map<String, String> hostSwitch = new LinkedHashMap<>();
        for (SwitchLine s : switches.values()) {
            for (String n : s.nodes()) {
                String other = hostSwitch.putIfAbsent(n, s.name());
                if (other != null) {
                    throw new BadInputException(src + ": line " + s.line() + ": node " + n + " is also under switch " + other
                            + "; a node has one NIC in lbsim: expected every node under exactly one switch");
                }
                hostIndex.put(n, hostIndex.size());
            }
            for (String c : s.switches()) {
                if (!switches.containsKey(c)) {
                    throw new BadInputException(src + ": line " + s.line() + ": Switches= names " + c
                            + ", which has no SwitchName line; expected every child switch to be described");
                }
            }
        }
        if (hostIndex.isEmpty()) throw new BadInputException(src + ": no switch has Nodes=; expected the leaf switches' nodes");
        List<String> hosts = new ArrayList<>(hostIndex.keySet());
        List<String> names = new ArrayList<>(switches.keySet());
        Map<String, Integer> switchIndex = new LinkedHashMap<>();
        for (String n : names) {
            if (hostIndex.containsKey(n)) throw new BadInputException(src + ": " + n + " is both a node and a switch");
            switchIndex.put(n, hosts.size() + switchIndex.size());
        }
        long hostRate = TopologySpec.bps(o.hostGbps()), switchRate = TopologySpec.bps(o.switchGbps());
        long latencyPs = Math.round(o.latencyNs() * 1000);
        List<CustomFabric.Link> links = new ArrayList<>();
        for (String h : hosts) links.add(new CustomFabric.Link(hostIndex.get(h), switchIndex.get(hostSwitch.get(h)), 1, hostRate, latencyPs));
        // child first, as the generators name their links (leaf0-spine1), and in the generators' order: by child, then
        // parent, so that a leaf-spine or fat-tree described in Slurm's terms imports as the generated fabric
        List<int[]> pairs = new ArrayList<>();
        for (SwitchLine s : switches.values()) {
            for (String c : s.switches()) pairs.add(new int[] {switchIndex.get(c), switchIndex.get(s.name())});
        }
        pairs.sort(java.util.Comparator.<int[]>comparingInt(p -> p[0]).thenComparingInt(p -> p[1]));
        for (int[] p : pairs) links.add(new CustomFabric.Link(p[0], p[1], o.parallel(), switchRate, latencyPs));
        List<Tier> tiers = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) tiers.add(null);
        try {
            return CustomFabric.builder(hosts, names, tiers, links).build();
        } catch (IllegalArgumentException e) {
            throw new BadInputException(src + ": " + e.getMessage());
        }
    }
}
