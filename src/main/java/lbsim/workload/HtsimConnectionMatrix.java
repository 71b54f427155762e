package lbsim.workload;

import lbsim.transport.FlowSpec;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reader of htsim's connection-matrix files ("Nodes N", "Connections C", "Triggers T",
 * then "SRC->DST id I start T size B" lines with optional trigger clauses), so the same
 * traffic runs in lbsim and htsim. Start times are in picoseconds, as in htsim.
 *
 * <p>Triggers become dependencies: a flow started by trigger t waits for the flows that
 * fire t, as htsim fires them: {@code recv_done_trigger} when the receiver has the whole flow
 * (its delivery), {@code send_done_trigger} when the sender has the ACK of its last byte (its
 * source's end trigger, later by the ACK's return). A barrier waits for all of its
 * activations (or its {@code count}), a one-shot or multi-shot trigger for the first. The reader is strict: header counts
 * must match the lines, every key has a value and appears once, trigger types are checked; anything else is a
 * {@link FormatException} naming the line.
 */
public final class HtsimConnectionMatrix {
    private HtsimConnectionMatrix() {}

    /** Parse error with the 1-based line number. */
    public static final class FormatException extends Exception {
        public FormatException(String message) {
            super(message);
        }
    }

    private record Conn(int id, int src, int dst, long size, long start, int trigger, int firesOnSend, int firesOnRecv, int line) {}

    /** A trigger line: its kind and, for a barrier, how many activations fire it (-1: all of them). */
    private record Trigger(String type, int count, int line) {}

    /** Largest flow size accepted, as for a scenario's flow list. */
    static final long MAX_SIZE = Long.MAX_VALUE / 16;
    /** Latest start accepted (ps), as for a scenario's flow list ({@code start_ns} up to Long.MAX_VALUE / 2000). */
    static final long MAX_START_PS = Long.MAX_VALUE / 2;

    public static FlowGraph read(Reader in) throws IOException, FormatException {
        BufferedReader r = new BufferedReader(in);
        int nodes = -1;
        long declaredConnections = -1, declaredTriggers = -1;
        List<Conn> conns = new ArrayList<>();
        Map<Integer, Trigger> triggers = new HashMap<>();
        String line;
        int lineNo = 0;
        while ((line = r.readLine()) != null) {
            lineNo++;
            String t = line.trim();
            if (t.isEmpty() || t.startsWith("#")) continue;
            String[] w = t.split("\\s+");
            switch (w[0]) {
                case "Nodes" -> nodes = (int) checkInt(header(w, nodes, lineNo), w, lineNo);
                case "Connections" -> declaredConnections = header(w, declaredConnections, lineNo);
                case "Triggers" -> declaredTriggers = header(w, declaredTriggers, lineNo);
                case "Failures" -> header(w, -1, lineNo); // htsim's failure count: lbsim takes failures from the scenario
                case "trigger" -> {
                    // trigger id T oneshot|multishot|barrier [count C]
                    if (w.length != 4 && w.length != 6 || !w[1].equals("id") || (w.length == 6 && !w[4].equals("count"))) {
                        throw new FormatException("line " + lineNo + ": expected 'trigger id T oneshot|multishot|barrier [count C]'");
                    }
                    int id = parseInt(w, 2, lineNo);
                    if (!List.of("oneshot", "multishot", "barrier").contains(w[3])) {
                        throw new FormatException("line " + lineNo + ": unknown trigger type '" + w[3] + "'; allowed: oneshot, multishot, barrier");
                    }
                    int count = w.length == 6 ? parseInt(w, 5, lineNo) : -1;
                    if (count == 0) throw new FormatException("line " + lineNo + ": trigger " + id + ": count must be >= 1");
                    if (triggers.put(id, new Trigger(w[3], count, lineNo)) != null) {
                        throw new FormatException("line " + lineNo + ": trigger " + id + " is defined twice");
                    }
                }
                default -> conns.add(parseConnection(w, lineNo));
            }
        }
        if (declaredConnections >= 0 && declaredConnections != conns.size()) {
            throw new FormatException("'Connections " + declaredConnections + "' but the file has " + conns.size()
                    + " connection lines (a truncated or concatenated file?)");
        }
        if (declaredTriggers >= 0 && declaredTriggers != triggers.size() && !(declaredTriggers == 0 && triggers.isEmpty())) {
            throw new FormatException("'Triggers " + declaredTriggers + "' but the file has " + triggers.size() + " trigger lines");
        }
        if (nodes < 0) throw new FormatException("missing 'Nodes N' header");
        FlowGraph g = new FlowGraph();
        Map<Integer, IntArrayList> firedBy = new HashMap<>();       // trigger -> flows that fire it
        Map<Integer, IntArrayList> activations = new HashMap<>();   // trigger -> 2 x flow, + 1 if at sender completion
        Map<Integer, Integer> indexOfId = new HashMap<>();
        for (int i = 0; i < conns.size(); i++) {
            Conn c = conns.get(i);
            if (c.src >= nodes || c.dst >= nodes) throw new FormatException("line " + c.line + ": host beyond Nodes " + nodes);
            // checked here so a bad line is a format error with its line number, not FlowSpec's IllegalArgumentException
            if (c.src == c.dst) throw new FormatException("line " + c.line + ": source and destination are the same host (" + c.src + ")");
            if (indexOfId.put(c.id, i) != null) throw new FormatException("line " + c.line + ": duplicate connection id " + c.id);
            for (int side = 0; side < 2; side++) {
                int t = side == 0 ? c.firesOnRecv : c.firesOnSend;
                if (t < 0) continue;
                firedBy.computeIfAbsent(t, k -> new IntArrayList()).add(i);
                activations.computeIfAbsent(t, k -> new IntArrayList()).add(2 * i + side);
            }
        }
        // flows are emitted in dependency order so every dependency has a smaller index
        int[] order = topologicalOrder(conns, firedBy);
        int[] newId = new int[conns.size()];
        for (int k = 0; k < order.length; k++) newId[order[k]] = k;
        for (int idx : order) {
            Conn c = conns.get(idx);
            IntArrayList onRecv = new IntArrayList();
            IntArrayList onSend = new IntArrayList();
            int afterCount = 0;
            if (c.trigger >= 0) {
                IntArrayList acts = activations.get(c.trigger);
                if (acts == null) throw new FormatException("line " + c.line + ": trigger " + c.trigger + " is never fired");
                for (int j = 0; j < acts.size(); j++) {
                    int a = acts.getInt(j);
                    ((a & 1) == 1 ? onSend : onRecv).add(newId[a >> 1]);
                }
                Trigger tr = triggers.get(c.trigger);
                if (tr == null || tr.type().equals("barrier")) {
                    // an undeclared trigger waits for all its activations, as a barrier of that count
                    int need = tr == null || tr.count() < 0 ? acts.size() : tr.count();
                    if (need > acts.size()) {
                        throw new FormatException("line " + tr.line() + ": barrier " + c.trigger + " needs " + need
                                + " activations but only " + acts.size() + " flows fire it: it would never fire");
                    }
                    afterCount = need;
                } else {
                    afterCount = 1;
                }
            }
            g.add(new FlowSpec(g.nextId(), c.src, c.dst, c.size, c.start, onRecv.toIntArray(), afterCount, 0, -1, 0,
                    "cm id " + c.id, onSend.toIntArray()));
        }
        return g;
    }

    /**
     * Flows in an order where every flow comes after the flows that fire its trigger (depth first from each flow
     * in file order, as before), with an explicit stack: a trigger chain of any length listed later-first must not
     * overflow the call stack.
     */
    private static int[] topologicalOrder(List<Conn> conns, Map<Integer, IntArrayList> firedBy) throws FormatException {
        int n = conns.size();
        int[] state = new int[n]; // 0 new, 1 on the path, 2 emitted
        int[] next = new int[n];  // per flow on the path: how many of its trigger's firing flows were visited
        IntArrayList out = new IntArrayList(n);
        IntArrayList path = new IntArrayList();
        for (int root = 0; root < n; root++) {
            if (state[root] != 0) continue;
            state[root] = 1;
            path.add(root);
            while (!path.isEmpty()) {
                int i = path.getInt(path.size() - 1);
                int t = conns.get(i).trigger;
                IntArrayList deps = t >= 0 ? firedBy.get(t) : null;
                if (deps != null && next[i] < deps.size()) {
                    int d = deps.getInt(next[i]++);
                    if (state[d] == 1) throw new FormatException("line " + conns.get(d).line + ": trigger cycle");
                    if (state[d] == 0) {
                        state[d] = 1;
                        path.add(d);
                    }
                    continue;
                }
                state[i] = 2;
                out.add(i);
                path.removeInt(path.size() - 1);
            }
        }
        return out.toIntArray();
    }

    private static Conn parseConnection(String[] w, int lineNo) throws FormatException {
        String[] ends = w[0].split("->");
        if (ends.length != 2) throw new FormatException("line " + lineNo + ": expected 'SRC->DST ...', got '" + w[0] + "'");
        int src = parseInt(ends, 0, lineNo), dst = parseInt(ends, 1, lineNo);
        int id = -1, trigger = -1, firesOnSend = -1, firesOnRecv = -1;
        long size = -1, start = 0;
        if (w.length % 2 == 0) {
            throw new FormatException("line " + lineNo + ": '" + w[w.length - 1] + "' has no value (a truncated line?)");
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 1; i + 1 < w.length; i += 2) {
            if (!seen.add(w[i])) throw new FormatException("line " + lineNo + ": '" + w[i] + "' is given twice");
            switch (w[i]) {
                case "id" -> id = parseInt(w, i + 1, lineNo);
                case "start" -> start = parseLong(w, i + 1, lineNo);
                case "size" -> size = parseLong(w, i + 1, lineNo);
                case "trigger" -> trigger = parseInt(w, i + 1, lineNo);
                case "send_done_trigger" -> firesOnSend = parseInt(w, i + 1, lineNo);
                case "recv_done_trigger" -> firesOnRecv = parseInt(w, i + 1, lineNo);
                case "prio", "msg" -> { }
                default -> throw new FormatException("line " + lineNo + ": unknown field '" + w[i] + "'");
            }
        }
        if (id < 0) throw new FormatException("line " + lineNo + ": missing 'id'");
        if (size <= 0) throw new FormatException("line " + lineNo + ": missing or non-positive 'size'");
        if (size > MAX_SIZE) throw new FormatException("line " + lineNo + ": size " + size + " is above the largest flow, " + MAX_SIZE + " bytes");
        if (start < 0 || start > MAX_START_PS) {
            throw new FormatException("line " + lineNo + ": 'start' " + start + " is outside [0, " + MAX_START_PS + "] ps");
        }
        if (seen.contains("start") && trigger >= 0) {
            throw new FormatException("line " + lineNo + ": give 'start' or 'trigger', not both");
        }
        return new Conn(id, src, dst, size, start, trigger, firesOnSend, firesOnRecv, lineNo);
    }

    /** The number of a header line ("Nodes N"), checked once: a second, different value is an error. */
    private static long header(String[] w, long previous, int lineNo) throws FormatException {
        if (w.length != 2) throw new FormatException("line " + lineNo + ": expected '" + w[0] + " N'");
        long v = parseLong(w, 1, lineNo);
        if (v < 0) throw new FormatException("line " + lineNo + ": '" + w[0] + "' must be >= 0");
        if (previous >= 0 && previous != v) throw new FormatException("line " + lineNo + ": '" + w[0] + "' given twice (" + previous + ", " + v + ")");
        return v;
    }

    private static long checkInt(long v, String[] w, int lineNo) throws FormatException {
        if (v > Integer.MAX_VALUE) throw new FormatException("line " + lineNo + ": '" + w[1] + "' is out of range [0, " + Integer.MAX_VALUE + "]");
        return v;
    }

    /** A host, id or trigger number: 0 .. Integer.MAX_VALUE (a cast would wrap larger values onto other hosts). */
    private static int parseInt(String[] w, int i, int lineNo) throws FormatException {
        long x = parseLong(w, i, lineNo);
        if (x < 0 || x > Integer.MAX_VALUE) {
            throw new FormatException("line " + lineNo + ": '" + w[i] + "' is out of range [0, " + Integer.MAX_VALUE + "]");
        }
        return (int) x;
    }

    private static long parseLong(String[] w, int i, int lineNo) throws FormatException {
        if (i >= w.length) throw new FormatException("line " + lineNo + ": missing number");
        try {
            return Long.parseLong(w[i]);
        } catch (NumberFormatException e) {
            throw new FormatException("line " + lineNo + ": expected a number, got '" + w[i] + "'");
        }
    }
}
