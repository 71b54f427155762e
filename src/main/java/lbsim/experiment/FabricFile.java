package lbsim.experiment;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import lbsim.BadInputException;
import lbsim.topology.CustomFabric;
import lbsim.topology.Hostlist;
import lbsim.topology.Tier;
import lbsim.topology.Topology;
import lbsim.topology.TopologyBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A topology file ({@code topology: {kind: file, file: PATH}}, docs/inputs.md): hosts, switches
 * (with optional tiers) and links (rate, latency, count), names as Slurm host lists allowed
 * ({@code h[0-15]}); and the writer that {@code lbsim topology export} uses, whose output reads
 * back as the same fabric with the same node and link names. Other readers of fabrics (ns-3's
 * topology.txt) hand theirs over as one too.
 */
public final class FabricFile {
    /** Tier names a switch may be given; leaf = tor and spine = agg as the leaf-spine generator has them. */
    static final Map<String, Tier> TIERS = Map.of("tor", Tier.TOR, "leaf", Tier.TOR, "agg", Tier.AGG, "spine", Tier.AGG,
            "core", Tier.CORE);
    private static final List<String> TIER_NAMES = List.of("tor", "agg", "core", "leaf", "spine");
    /** Most link entries a file may expand to (host lists in both ends multiply). */
    static final int MAX_LINK_ENTRIES = 4_000_000;
    /** Characters a node name may not hold: they mean something in link names, globs or host lists. */
    private static final Pattern BAD_NAME = Pattern.compile("[\\s/*?\\[\\],]");

    private final String source;
    private final List<String> hosts;
    private final List<String> switches;
    private final List<Tier> tiers;
    private final List<CustomFabric.Link> links;

    FabricFile(String source, List<String> hosts, List<String> switches, List<Tier> tiers, List<CustomFabric.Link> links) {
        this.source = source;
        this.hosts = hosts;
        this.switches = switches;
        this.tiers = tiers;
        this.links = links;
        builder(); // every check now, while the scenario is read
    }

    public int hostCount() {
        return hosts.size();
    }

    /** A fresh builder of the fabric (link overrides change it). */
    public TopologyBuilder builder() {
        try {
            return CustomFabric.builder(hosts, switches, tiers, links);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(source + ": " + e.getMessage());
        }
    }

    /** Reads a topology file. */
    public static FabricFile read(Path path) {
        String text = YamlInput.read(path, "topology file");
        String src = path.toString();
        JsonNode root = ScenarioLoader.readYaml(src, text);
        if (root == null || !root.isObject()) throw new BadInputException(src + ": expected a YAML mapping with hosts, switches and links");
        return parse(new Section(src, "", (ObjectNode) root));
    }

    static FabricFile parse(Section s) {
        double defGbps = s.doubleValue("link_gbps", 100, 1e-3, 1e6);
        double defLatencyNs = s.doubleValue("link_latency_ns", 1000, 0, 1e9);
        Map<String, Integer> index = new LinkedHashMap<>();
        List<String> hosts = names(s, "hosts", index, 0);
        List<String> switches = new ArrayList<>();
        List<Tier> tiers = new ArrayList<>();
        JsonNode sw = s.rawValue("switches");
        if (sw == null || !sw.isArray() || sw.isEmpty()) throw s.error("switches", "expected a list of switch names or {name, tier}");
        for (int i = 0; i < sw.size(); i++) {
            JsonNode e = sw.get(i);
            String key = "switches[" + i + "]";
            Tier tier = null;
            String pattern;
            if (e.isObject()) {
                Section one = new Section(s.file(), key, (ObjectNode) e);
                pattern = nameText(one, "name");
                if (one.has("tier")) tier = TIERS.get(one.choice("tier", null, TIER_NAMES));
                one.finish();
            } else if (e.isString()) {
                pattern = e.asString();
            } else {
                throw s.error(key, "expected a switch name or {name, tier}, got " + e);
            }
            for (String name : expand(s, key, pattern)) {
                addName(s, key, name, index, hosts.size() + switches.size());
                switches.add(name);
                tiers.add(tier);
            }
        }
        List<CustomFabric.Link> links = new ArrayList<>();
        List<Section> ls = s.sections("links");
        if (ls.isEmpty()) throw s.error("links", "expected a list of {a, b, count, gbps, latency_ns}");
        for (Section l : ls) {
            List<Integer> as = ends(l, "a", index);
            List<Integer> bs = ends(l, "b", index);
            int count = l.intValue("count", 1, 1, 4096);
            long rate = TopologySpec.bps(l.doubleValue("gbps", defGbps, 1e-3, 1e6));
            long latencyPs = Math.round(l.doubleValue("latency_ns", defLatencyNs, 0, 1e9) * 1000);
            l.finish();
            if ((long) as.size() * bs.size() + links.size() > MAX_LINK_ENTRIES) {
                throw l.error("b", as.size() + " x " + bs.size() + " ends make more than " + MAX_LINK_ENTRIES + " links in the file;"
                        + " a link entry connects every a to every b");
            }
            for (int a : as) for (int b : bs) links.add(new CustomFabric.Link(a, b, count, rate, latencyPs));
        }
        s.finish();
        return new FabricFile(s.file(), hosts, switches, tiers, links);
    }

    private static List<String> names(Section s, String key, Map<String, Integer> index, int first) {
        JsonNode v = s.rawValue(key);
        if (v == null || !v.isArray() || v.isEmpty()) throw s.error(key, "expected a list of names (host lists like h[0-15] allowed)");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode e = v.get(i);
            if (!e.isString()) throw s.error(key + "[" + i + "]", "expected a name (text; quote a number: '7'), got " + e);
            for (String name : expand(s, key + "[" + i + "]", e.asString())) {
                addName(s, key + "[" + i + "]", name, index, first + out.size());
                out.add(name);
            }
        }
        return out;
    }

    private static String nameText(Section s, String key) {
        JsonNode v = s.rawValue(key);
        if (v == null || !v.isString()) throw s.error(key, "expected a name (text)");
        return v.asString();
    }

    private static List<String> expand(Section s, String key, String pattern) {
        try {
            return Hostlist.expand(pattern);
        } catch (IllegalArgumentException e) {
            throw s.error(key, e.getMessage());
        }
    }

    private static void addName(Section s, String key, String name, Map<String, Integer> index, int id) {
        if (BAD_NAME.matcher(name).find()) {
            throw s.error(key, "'" + name + "' is not a node name: names may not hold spaces, '/', '*', '?', ',', '[' or ']'");
        }
        if (index.putIfAbsent(name, id) != null) throw s.error(key, "node " + name + " is named twice");
    }

    private static List<Integer> ends(Section l, String key, Map<String, Integer> index) {
        String pattern = nameText(l, key);
        List<Integer> out = new ArrayList<>();
        for (String name : expand(l, key, pattern)) {
            Integer id = index.get(name);
            if (id == null) throw l.error(key, "'" + name + "' is not a host or switch of this file");
            out.add(id);
        }
        return out;
    }

    // ---- writing -------------------------------------------------------------------------

    /** YAML words that a plain name would be read as (booleans, null), besides numbers. */
    private static final Set<String> YAML_WORDS = Set.of("true", "false", "yes", "no", "on", "off", "y", "n", "null", "~");
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_.:+-]*");

    /**
     * The fabric as a topology file: hosts in number order, switches in node order with their tiers,
     * links in link order (consecutive bundle members alike in rate and latency as one entry with a
     * count); the most common link rate and latency are written once as the defaults.
     */
    public static String write(Topology t, String header) {
        Map<LinkSpec, Integer> freq = new HashMap<>();
        for (int l = 0; l < t.linkCount(); l++) freq.merge(LinkSpec.of(t, l), 1, Integer::sum);
        LinkSpec common = freq.entrySet().stream().max(Map.Entry.<LinkSpec, Integer>comparingByValue()
                .thenComparing(e -> -e.getKey().rateBps()).thenComparing(e -> -e.getKey().latencyPs())).orElseThrow().getKey();
        long defRate = common.rateBps();
        long defLatency = common.latencyPs();
        StringBuilder sb = new StringBuilder();
        for (String line : header.split("\n")) sb.append("# ").append(line).append('\n');
        sb.append("link_gbps: ").append(gbps(defRate)).append('\n');
        sb.append("link_latency_ns: ").append(ns(defLatency)).append('\n');
        sb.append("hosts: [");
        int col = 8;
        for (int h = 0; h < t.hostCount(); h++) {
            String name = yamlName(t.nodeName(h));
            if (h > 0) {
                sb.append(',');
                col++;
                if (col + name.length() > 100) {
                    sb.append("\n  ");
                    col = 2;
                } else {
                    sb.append(' ');
                    col++;
                }
            }
            sb.append(name);
            col += name.length();
        }
        sb.append("]\nswitches:\n");
        for (int n = t.hostCount(); n < t.nodeCount(); n++) {
            sb.append("  - {name: ").append(yamlName(t.nodeName(n))).append(", tier: ")
                    .append(t.tier(n).name().toLowerCase(Locale.ROOT)).append("}\n");
        }
        sb.append("links:\n");
        for (int l = 0; l < t.linkCount(); ) {
            int a = t.portOwner(t.linkPortA(l)), b = t.portOwner(t.linkPortB(l));
            long rate = t.portRateBps(t.linkPortA(l)), lat = t.portLatencyPs(t.linkPortA(l));
            int count = 1;
            while (l + count < t.linkCount() && t.portOwner(t.linkPortA(l + count)) == a && t.portOwner(t.linkPortB(l + count)) == b
                    && t.portRateBps(t.linkPortA(l + count)) == rate && t.portLatencyPs(t.linkPortA(l + count)) == lat) {
                count++;
            }
            sb.append("  - {a: ").append(yamlName(t.nodeName(a))).append(", b: ").append(yamlName(t.nodeName(b)));
            if (count > 1) sb.append(", count: ").append(count);
            if (rate != defRate) sb.append(", gbps: ").append(gbps(rate));
            if (lat != defLatency) sb.append(", latency_ns: ").append(ns(lat));
            sb.append("}\n");
            l += count;
        }
        return sb.toString();
    }

    /** A link's rate and latency, to find the most common pair. */
    private record LinkSpec(long rateBps, long latencyPs) {
        static LinkSpec of(Topology t, int link) {
            return new LinkSpec(t.portRateBps(t.linkPortA(link)), t.portLatencyPs(t.linkPortA(link)));
        }
    }

    static String gbps(long bps) {
        return BigDecimal.valueOf(bps).movePointLeft(9).stripTrailingZeros().toPlainString();
    }

    static String ns(long ps) {
        return BigDecimal.valueOf(ps).movePointLeft(3).stripTrailingZeros().toPlainString();
    }

    /** A name as YAML text: plain when YAML reads it back as the same text, else double-quoted. */
    static String yamlName(String name) {
        if (PLAIN.matcher(name).matches() && !YAML_WORDS.contains(name.toLowerCase(Locale.ROOT))) return name;
        return '"' + name.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
