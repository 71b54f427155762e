package lbsim.metrics;

import java.util.ArrayList;
import java.util.HashMap;
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

    /** Every port's class (its outgoing direction: node-name stems and the nominal rate), in port order: stems and rate labels are worked out once each (a run does this at every end). */
    private String[] classes() {
        Topology t = net.topology();
        Port[] ports = net.ports();
        String[] stems = new String[t.nodeCount()];
        Map<Long, String> rates = new HashMap<>();
        String[] out = new String[ports.length];
        for (int i = 0; i < ports.length; i++) {
            Port p = ports[i];
            int a = p.owner.id;
            int b = p.peer().id;
            if (stems[a] == null) stems[a] = stem(t, a);
            if (stems[b] == null) stems[b] = stem(t, b);
            String rate = rates.computeIfAbsent(p.nominalRateBps(), r -> ResultWriter.num(r / 1e9) + "G");
            out[i] = stems[a] + "->" + stems[b] + " " + rate;
        }
        return out;
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
        Map<String, List<double[]>> byClass = new TreeMap<>();
        Port[] ports = net.ports();
        String[] classes = classes();
        boolean split = snapshotPs >= 0 && endPs > snapshotPs;   // as in uplinks: a failure at 0 has no before
        for (int i = 0; i < ports.length; i++) {
            Port p = ports[i];
            double rate = p.nominalRateBps();
            long bytes = p.txBytesSoFar();
            double total = endPs > 0 ? bytes * 8.0 / (rate * endPs / 1e12) : 0;
            double before = Double.NaN;
            double after = Double.NaN;
            if (split) {
                if (snapshotPs > 0) before = bytesAtSnapshot[i] * 8.0 / (rate * snapshotPs / 1e12);
                after = (bytes - bytesAtSnapshot[i]) * 8.0 / (rate * (endPs - snapshotPs) / 1e12);
            }
            byClass.computeIfAbsent(classes[i], k -> new ArrayList<>()).add(new double[] {total, before, after});
        }
        List<LinkClassRecord> out = new ArrayList<>();
        for (var e : byClass.entrySet()) {
            List<double[]> v = e.getValue();
            double sum = 0, sumSq = 0, max = 0, b = 0, a = 0;
            for (double[] x : v) {
                sum += x[0];
                sumSq += x[0] * x[0];
                max = Math.max(max, x[0]);
                b += x[1];
                a += x[2];
            }
            int n = v.size();
            double mean = sum / n;
            double var = Math.max(0, sumSq / n - mean * mean);
            out.add(new LinkClassRecord(e.getKey(), n, mean, Math.sqrt(var), max, b / n, a / n));
        }
        return out;
    }
}
