package lbsim.metrics;

import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.objects.Object2IntOpenHashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lbsim.net.Network;
import lbsim.net.Port;
import lbsim.topology.Topology;

/**
 * Groups link directions into classes ("leaf->spine 100G") and summarises their utilisation over
 * the run, and over the windows before and after an instant (the first failure) whose byte counts
 * were snapshot with {@link #snapshot}.
 */
public final class LinkClasses {
    private final Network net;
    private long[] bytesAtSnapshot;
    private long snapshotPs = -1;

    public LinkClasses(Network net) {
        this.net = net;
    }

    /** Records every port's sent bytes now (call at the first failure). */
    public void snapshot(long nowPs) {
        Port[] ports = net.ports();
        bytesAtSnapshot = new long[ports.length];
        for (int i = 0; i < ports.length; i++) bytesAtSnapshot[i] = ports[i].txBytesSoFar();
        snapshotPs = nowPs;
    }

    /**
     * Every port's class (its outgoing direction: node-name stems and the nominal rate) as an index
     * into {@code names}: a class name is built once per class, not once per port (a run does this
     * at every end), and indices keep the summation per class in port order.
     */
    private record PortClasses(int[] ofPort, String[] names) {}

    private PortClasses classes() {
        Topology t = net.topology();
        Port[] ports = net.ports();
        Object2IntOpenHashMap<String> stemIds = new Object2IntOpenHashMap<>();
        int[] stemOf = new int[t.nodeCount()];
        java.util.Arrays.fill(stemOf, -1);
        List<String> stems = new ArrayList<>();
        Long2IntOpenHashMap rateIds = new Long2IntOpenHashMap();
        Long2IntOpenHashMap classIds = new Long2IntOpenHashMap();
        classIds.defaultReturnValue(-1);
        Object2IntOpenHashMap<String> classOfName = new Object2IntOpenHashMap<>();
        List<String> names = new ArrayList<>();
        int[] out = new int[ports.length];
        for (int i = 0; i < ports.length; i++) {
            Port p = ports[i];
            int a = stemId(t, p.owner.id, stemOf, stemIds, stems);
            int b = stemId(t, p.peer().id, stemOf, stemIds, stems);
            int r = rateIds.computeIfAbsent(p.nominalRateBps(), x -> rateIds.size());
            long key = ((long) a << 42) | ((long) b << 21) | r;   // each fewer than 2^21 (at most one per node or port)
            int c = classIds.get(key);
            if (c < 0) {
                // a class is its name: rates that print alike (e.g. 100.00001G and 100.00002G) share one
                String name = stems.get(a) + "->" + stems.get(b) + " " + ResultWriter.num(p.nominalRateBps() / 1e9) + "G";
                c = classOfName.computeIfAbsent(name, x -> classOfName.size());
                if (c == names.size()) names.add(name);
                classIds.put(key, c);
            }
            out[i] = c;
        }
        return new PortClasses(out, names.toArray(new String[0]));
    }

    private static int stemId(Topology t, int node, int[] stemOf, Object2IntOpenHashMap<String> ids, List<String> stems) {
        if (stemOf[node] < 0) {
            String stem = stem(t, node);
            int id = ids.getOrDefault(stem, -1);
            if (id < 0) {
                id = stems.size();
                stems.add(stem);
                ids.put(stem, id);
            }
            stemOf[node] = id;
        }
        return stemOf[node];
    }

    private static String stem(Topology t, int node) {
        if (t.isHost(node)) return "host";
        String n = t.nodeName(node);
        int end = n.length();
        while (end > 0 && Character.isDigit(n.charAt(end - 1))) end--;
        return n.substring(0, end);
    }

    /**
     * The ToR uplinks' utilisation and its spread (metrics/UplinkLoad): variances are taken across
     * each ToR's uplinks and averaged over the ToRs; after the first failure they cover the uplinks
     * still up at the ToRs that lost one (all ToRs if none did).
     */
    public UplinkLoad uplinks(long endPs) {
        Topology t = net.topology();
        Port[] ports = net.ports();
        // a failure at time 0 has an after-failure window (the whole run) but no before
        boolean split = snapshotPs >= 0 && endPs > snapshotPs;
        boolean hasBefore = split && snapshotPs > 0;
        Map<Integer, List<Integer>> byTor = new TreeMap<>();
        for (int i = 0; i < ports.length; i++) {
            Port p = ports[i];
            if (t.isHost(p.owner.id) || t.tier(p.owner.id) != lbsim.topology.Tier.TOR || t.isHost(p.peer().id)) continue;
            byTor.computeIfAbsent(p.owner.id, k -> new ArrayList<>()).add(i);
        }
        int links = 0, down = 0;
        double sumU = 0, max = 0, varAll = 0, varBefore = 0, sumBefore = 0;
        boolean anyTorLost = false;
        for (List<Integer> tor : byTor.values()) for (int i : tor) if (!ports[i].isUp()) anyTorLost = true;
        List<Double> afterAll = new ArrayList<>();
        double varAfter = 0;
        int torsAfter = 0;
        for (List<Integer> tor : byTor.values()) {
            List<Double> total = new ArrayList<>(), before = new ArrayList<>(), after = new ArrayList<>();
            boolean lost = false;
            for (int i : tor) {
                Port p = ports[i];
                double rate = p.nominalRateBps();
                long bytes = p.txBytesSoFar();
                double u = endPs > 0 ? bytes * 8.0 / (rate * endPs / 1e12) : 0;
                total.add(u);
                sumU += u;
                max = Math.max(max, u);
                links++;
                if (!p.isUp()) {
                    down++;
                    lost = true;
                }
                if (hasBefore) {
                    double b = bytesAtSnapshot[i] * 8.0 / (rate * snapshotPs / 1e12);
                    before.add(b);
                    sumBefore += b;
                }
                if (split) {
                    if (p.isUp()) after.add((bytes - bytesAtSnapshot[i]) * 8.0 / (rate * (endPs - snapshotPs) / 1e12));
                }
            }
            varAll += UplinkLoad.meanVariancePct2(total)[1];
            if (hasBefore) varBefore += UplinkLoad.meanVariancePct2(before)[1];
            if (split) {
                if ((lost || !anyTorLost) && !after.isEmpty()) {
                    varAfter += UplinkLoad.meanVariancePct2(after)[1];
                    torsAfter++;
                    afterAll.addAll(after);
                }
            }
        }
        int tors = byTor.size();
        if (links == 0) return new UplinkLoad(0, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN);
        double nan = Double.NaN;
        double minA = nan, maxA = nan, meanA = nan;
        if (!afterAll.isEmpty()) {
            minA = afterAll.stream().mapToDouble(Double::doubleValue).min().orElse(nan);
            maxA = afterAll.stream().mapToDouble(Double::doubleValue).max().orElse(nan);
            meanA = UplinkLoad.meanVariancePct2(afterAll)[0];
        }
        return new UplinkLoad(links, down, sumU / links, max, varAll / tors, hasBefore ? sumBefore / links : nan,
                hasBefore ? varBefore / tors : nan, meanA, minA, maxA, torsAfter > 0 ? varAfter / torsAfter : nan);
    }

    public List<LinkClassRecord> summarise(long endPs) {
        Port[] ports = net.ports();
        PortClasses pc = classes();
        int k = pc.names().length;
        int[] n = new int[k];
        double[] sum = new double[k], sumSq = new double[k], max = new double[k], before = new double[k], after = new double[k];
        boolean split = snapshotPs >= 0 && endPs > snapshotPs;   // as in uplinks: a failure at 0 has no before
        for (int i = 0; i < ports.length; i++) {
            Port p = ports[i];
            double rate = p.nominalRateBps();
            long bytes = p.txBytesSoFar();
            double total = endPs > 0 ? bytes * 8.0 / (rate * endPs / 1e12) : 0;
            double b = Double.NaN;
            double a = Double.NaN;
            if (split) {
                if (snapshotPs > 0) b = bytesAtSnapshot[i] * 8.0 / (rate * snapshotPs / 1e12);
                a = (bytes - bytesAtSnapshot[i]) * 8.0 / (rate * (endPs - snapshotPs) / 1e12);
            }
            int c = pc.ofPort()[i];
            n[c]++;
            sum[c] += total;
            sumSq[c] += total * total;
            max[c] = Math.max(max[c], total);
            before[c] += b;
            after[c] += a;
        }
        Integer[] byName = new Integer[k];
        for (int c = 0; c < k; c++) byName[c] = c;
        java.util.Arrays.sort(byName, (x, y) -> pc.names()[x].compareTo(pc.names()[y]));
        List<LinkClassRecord> out = new ArrayList<>();
        for (int c : byName) {
            double mean = sum[c] / n[c];
            double var = Math.max(0, sumSq[c] / n[c] - mean * mean);
            out.add(new LinkClassRecord(pc.names()[c], n[c], mean, Math.sqrt(var), max[c], before[c] / n[c], after[c] / n[c]));
        }
        return out;
    }
}
