package lbsim.experiment;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lbsim.BadInputException;
import lbsim.topology.CustomFabric;
import lbsim.topology.Tier;

/**
 * The HPCC / ConWeave ns-3 {@code topology.txt} ({@code topology: {kind: ns3, file: PATH}}): a line
 * {@code NODES SWITCHES LINKS}, the switch node ids, then one {@code SRC DST RATE DELAY ERROR_RATE}
 * line per link ({@code 0 128 100Gbps 1000ns 0}). Nodes that are not switches are hosts, numbered
 * in increasing id order and named {@code h<ID>}; switches are named {@code s<ID>}. As ns-3 does, the
 * reader stops after the declared number of links (the shipped files carry notes below them).
 */
public final class Ns3Topology {
    private Ns3Topology() {}

    private static final String LINK_FORM = "'SRC DST RATE DELAY ERROR_RATE', e.g. '0 128 100Gbps 1000ns 0'";
    private static final Pattern RATE = Pattern.compile("([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)([kKMGT]?)(bps|b/s|Bps|B/s)");
    private static final Pattern DELAY = Pattern.compile("([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)(ps|ns|us|ms|s)?");

    /** Reads the file as a fabric (CustomFabric's checks apply). */
    public static FabricFile read(Path path) {
        List<String> lines;
        try {
            lines = Files.readAllLines(path);
        } catch (IOException e) {
            throw new BadInputException(path + ": cannot read ns-3 topology file (" + e.getMessage() + ")");
        }
        return parse(path.toString(), lines);
    }

    static FabricFile parse(String src, List<String> lines) {
        int i = next(lines, 0);
        if (i < 0) throw new BadInputException(src + ": empty; expected a first line 'NODES SWITCHES LINKS', e.g. '144 16 192'");
        String[] head = lines.get(i).trim().split("\\s+");
        if (head.length != 3) throw bad(src, i, "expected 'NODES SWITCHES LINKS' (three whole numbers, e.g. '144 16 192')", lines.get(i));
        int nodes = whole(src, i, head[0], "NODES", 1), switchCount = whole(src, i, head[1], "SWITCHES", 1);
        int linkCount = whole(src, i, head[2], "LINKS", 1);
        if (switchCount >= nodes) throw bad(src, i, "SWITCHES " + switchCount + " must be below NODES " + nodes + " (the rest are hosts)", lines.get(i));
        boolean[] isSwitch = new boolean[nodes];
        List<Integer> switchIds = new ArrayList<>();
        while (switchIds.size() < switchCount) {
            i = next(lines, i + 1);
            if (i < 0) throw new BadInputException(src + ": ends after " + switchIds.size() + " of the " + switchCount + " switch ids");
            for (String t : lines.get(i).trim().split("\\s+")) {
                if (switchIds.size() == switchCount) throw bad(src, i, "more switch ids than SWITCHES " + switchCount, lines.get(i));
                int id = whole(src, i, t, "switch id", 0);
                if (id >= nodes) throw bad(src, i, "switch id " + id + " is not a node (ids are 0.." + (nodes - 1) + ")", lines.get(i));
                if (isSwitch[id]) throw bad(src, i, "switch id " + id + " is listed twice", lines.get(i));
                isSwitch[id] = true;
                switchIds.add(id);
            }
        }
        Map<Integer, Integer> index = new HashMap<>();
        List<String> hosts = new ArrayList<>(), switches = new ArrayList<>();
        for (int id = 0; id < nodes; id++) {
            if (!isSwitch[id]) {
                index.put(id, hosts.size());
                hosts.add("h" + id);
            }
        }
        List<Tier> tiers = new ArrayList<>();
        for (int id = 0; id < nodes; id++) {
            if (isSwitch[id]) {
                index.put(id, hosts.size() + switches.size());
                switches.add("s" + id);
                tiers.add(null);
            }
        }
        List<CustomFabric.Link> links = new ArrayList<>();
        for (int l = 0; l < linkCount; l++) {
            i = next(lines, i + 1);
            if (i < 0) throw new BadInputException(src + ": ends after " + l + " of the " + linkCount + " links the first line declares;"
                    + " expected " + LINK_FORM);
            String[] w = lines.get(i).trim().split("\\s+");
            if (w.length != 5) throw bad(src, i, "expected " + LINK_FORM, lines.get(i));
            int a = whole(src, i, w[0], "SRC", 0), b = whole(src, i, w[1], "DST", 0);
            for (int id : new int[] {a, b}) {
                if (id >= nodes) throw bad(src, i, "node " + id + " does not exist (ids are 0.." + (nodes - 1) + ")", lines.get(i));
            }
            long rate = rateBps(src, i, w[2], lines.get(i));
            long delay = delayPs(src, i, w[3], lines.get(i));
            double error;
            try {
                error = Double.parseDouble(w[4]);
            } catch (NumberFormatException e) {
                throw bad(src, i, "ERROR_RATE '" + w[4] + "' is not a number; expected " + LINK_FORM, lines.get(i));
            }
            if (error != 0) {
                throw bad(src, i, "ERROR_RATE " + w[4] + ": lbsim does not drop packets at random per link; expected 0 (model loss"
                        + " with failures: [{kind: flaky, link: ...}] instead)", lines.get(i));
            }
            links.add(new CustomFabric.Link(index.get(a), index.get(b), 1, rate, delay));
        }
        return new FabricFile(src, hosts, switches, tiers, links);
    }

    /** Index of the first non-blank line at or after {@code from}, or -1. */
    private static int next(List<String> lines, int from) {
        for (int i = from; i < lines.size(); i++) if (!lines.get(i).isBlank()) return i;
        return -1;
    }

    private static BadInputException bad(String src, int line, String what, String text) {
        return new BadInputException(src + ": line " + (line + 1) + ": " + what + "; got '" + text.trim() + "'");
    }

    private static int whole(String src, int line, String token, String what, int min) {
        if (!token.matches("[0-9]{1,9}") || Integer.parseInt(token) < min) {
            throw new BadInputException(src + ": line " + (line + 1) + ": " + what + " '" + token + "' is not a whole number"
                    + (min > 0 ? " >= " + min : ""));
        }
        return Integer.parseInt(token);
    }

    /** ns-3 DataRate text: bits per second with an optional k/K, M, G, T prefix; B instead of b counts bytes. */
    static long rateBps(String src, int line, String token, String text) {
        Matcher m = RATE.matcher(token);
        if (!m.matches()) throw bad(src, line, "RATE '" + token + "': expected a rate like 100Gbps, 400Gb/s or 25Mbps", text);
        BigDecimal x = new BigDecimal(m.group(1));
        int power = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "K" -> 3;
            case "M" -> 6;
            case "G" -> 9;
            case "T" -> 12;
            default -> 0;
        };
        x = x.movePointRight(power);
        if (m.group(3).startsWith("B")) x = x.multiply(BigDecimal.valueOf(8));
        if (x.signum() <= 0 || x.compareTo(BigDecimal.valueOf(1e15)) > 0) {
            throw bad(src, line, "RATE '" + token + "' is out of range (1 bit/s .. 1000 Tbit/s)", text);
        }
        return x.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
    }

    /** ns-3 Time text: a number with ps, ns, us, ms or s (no unit: seconds). */
    static long delayPs(String src, int line, String token, String text) {
        Matcher m = DELAY.matcher(token);
        if (!m.matches()) throw bad(src, line, "DELAY '" + token + "': expected a delay like 1000ns, 1us or 0.001ms", text);
        int power = switch (m.group(2) == null ? "s" : m.group(2)) {
            case "ps" -> 0;
            case "ns" -> 3;
            case "us" -> 6;
            case "ms" -> 9;
            default -> 12;
        };
        BigDecimal ps = new BigDecimal(m.group(1)).movePointRight(power);
        if (ps.compareTo(BigDecimal.valueOf(1_000_000_000_000L)) > 0) throw bad(src, line, "DELAY '" + token + "' is over 1 s", text);
        return ps.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
    }
}
