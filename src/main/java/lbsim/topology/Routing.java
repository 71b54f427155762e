package lbsim.topology;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.Object2IntOpenCustomHashMap;
import it.unimi.dsi.fastutil.objects.Object2ObjectOpenCustomHashMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Shortest-path (up-down in a Clos) equal-cost next-hop groups for every switch toward every
 * ToR, and stable source-route path IDs.
 *
 * <p>A path ID spends one byte at every hop whose equal-cost group has more than one member:
 * the byte, modulo the group size, picks the member: the low byte at the source ToR, the next
 * byte at the next switch with a choice (Ethereal §3's 16-bit ID; up to 4 such switches in 32
 * bits). A switch with more than {@link #MAX_PATH_CHOICES} next hops cannot be named by one byte:
 * source-routing users refuse such fabrics ({@link #widestChoice}). Groups list ports in port
 * order, so the numbering is stable for a given topology.
 *
 * <p>What a byte names depends on the {@link PathControl} (Ethereal's {@code path_control}):
 * <ul>
 *   <li>{@link PathControl#LAG} (the methods without a control): the byte picks the next-hop
 *       switch, i.e. a bundle (the group's ports to one peer, in order of first appearance; a LAG
 *       of {@code parallel_links} members). The member inside a bundle is not part of the path ID;
 *       the switch hashes it.</li>
 *   <li>{@link PathControl#PORT} (Ethereal §3.2: the byte is the "uplink index"): at an upward hop
 *       (next hops in a higher {@link Tier}) with more than one equal-cost egress port, the byte
 *       picks the port among them, numbered bundle by bundle and member by member inside a bundle
 *       ({@link #portGroupsOf}; {@code bundle x members + member} when bundles are equal), so
 *       byte {@code i} at a ToR with 4 aggregation switches over 4-link bundles is member
 *       {@code i % 4} to aggregation switch {@code i / 4}. Downward hops read the bytes back in
 *       reverse order, a stack: the first downward hop with a choice (several members of one
 *       bundle) re-reads the last upward byte, the next one the byte before, and takes member
 *       {@code byte % members}: the packet comes down the member index it went up on at the same
 *       tier boundary, so a source's even split over its uplink ports is even on the downlinks too,
 *       and the reverse of a path (ACKs) is again such a path. Path IDs between two ToRs are the
 *       product of the uplink ports per upward hop (Ethereal §4's fat-tree, 4 x 4-link bundles up
 *       at the ToR and at the aggregation switch: 16 x 16 = 256 between pods).</li>
 * </ul>
 * Without parallel links every bundle has one member, so both name the same links with the same IDs.
 */
public final class Routing {
    private final Topology topo;
    /** Per switch (node - hosts): group id per destination ToR index (a ToR's own entry: another ToR's, see groupToward); equal rows are one array. */
    private final int[][] groupByTor;
    /** Per switch: distinct groups of local port indices. */
    private final int[][][] groups;
    /** Per switch, per group: the group's ports split into bundles (ports to the same peer). */
    private final int[][][][] bundles;
    /** Per host: local index of the port at its ToR that leads to it. */
    private final int[] torPortToHost;

    private final boolean[] linkDown;
    /** Per ToR index: its class representative (the first ToR with the same neighbouring switches). */
    private final int[] torClass;
    /** Per ToR index: whether its neighbouring switches include no ToR (bestPath shares its middle hops then). */
    private final boolean[] torUplinksOnly;
    /** Switch-to-switch hops on the longest shortest path between two ToRs (0 with one ToR). */
    private final int maxTorHops;

    Routing(Topology topo, boolean[] linkDown) {
        this.topo = topo;
        this.linkDown = linkDown == null ? new boolean[topo.linkCount()] : linkDown.clone();
        int hosts = topo.hostCount();
        int switches = topo.nodeCount() - hosts;
        int tors = topo.torCount();
        groupByTor = new int[switches][];
        groups = new int[switches][][];
        bundles = new int[switches][][][];
        torPortToHost = new int[hosts];
        for (int h = 0; h < hosts; h++) torPortToHost[h] = topo.localIndex(topo.portPeer(topo.hostPort(h)));

        int maxDegree = 0;
        for (int s = 0; s < switches; s++) maxDegree = Math.max(maxDegree, topo.portsOf(hosts + s));
        // the switch behind each usable port of every switch, -1 for a host or a link that is down
        int[][] peerSwitch = new int[switches][];
        for (int s = 0; s < switches; s++) {
            int first = topo.firstPort(hosts + s);
            int[] peers = peerSwitch[s] = new int[topo.portsOf(hosts + s)];
            for (int i = 0; i < peers.length; i++) {
                int peer = topo.peerNode(first + i);
                peers[i] = this.linkDown[topo.portLink(first + i)] || topo.isHost(peer) ? -1 : peer - hosts;
            }
        }
        // ToRs with the same set of neighbouring switches (a pod's ToRs, a leaf-spine's leaves) have
        // the same hop distance to every switch but themselves: dist(t, x) = 1 + min over the shared
        // neighbours, so t's distances are its class representative's with the two ToRs swapped,
        // and only the two ToRs and their neighbours have next hops toward t that differ from those
        // toward the representative. One search per class instead of per ToR, and the next hops of
        // the other switches shared, keep set-up at (classes x ports) rather than (ToRs x ports)
        // (a k=64 fat-tree: 64 searches instead of 2 048).
        int[] repOf = new int[tors];
        int[][] neighbours = new int[tors][];
        Object2IntOpenCustomHashMap<int[]> classOf = new Object2IntOpenCustomHashMap<>(IntArrays.HASH_STRATEGY);
        classOf.defaultReturnValue(-1);
        int[][] repDist = new int[tors][];
        int[] queue = new int[switches];
        for (int t = 0; t < tors; t++) {
            neighbours[t] = Arrays.stream(peerSwitch[topo.torNode(t) - hosts]).filter(p -> p >= 0).distinct().sorted().toArray();
            int rep = classOf.getInt(neighbours[t]);
            if (rep < 0) {
                classOf.put(neighbours[t], t);
                repDist[t] = bfs(topo.torNode(t), queue);
                rep = t;
            }
            repOf[t] = rep;
        }
        // a ToR's distances are its representative's with the two ToRs swapped, so the farthest pair of ToRs
        // is found among the representatives' searches
        int far = 0;
        for (int t = 0; t < tors; t++) {
            if (repDist[t] == null) continue;
            for (int u = 0; u < tors; u++) {
                int d = repDist[t][topo.torNode(u) - hosts];
                if (d != Integer.MAX_VALUE) far = Math.max(far, d);
            }
        }
        this.maxTorHops = far;
        torClass = repOf;
        torUplinksOnly = new boolean[tors];
        for (int t = 0; t < tors; t++) {
            torUplinksOnly[t] = Arrays.stream(neighbours[t]).noneMatch(n -> topo.torIndex(hosts + n) >= 0);
        }

        int[] scratch = new int[maxDegree];
        // per switch, the ToRs whose next hops there differ from those toward their class representative:
        // the ToR's own switch, its representative's, and its neighbours (see above)
        int[][] special = specialTors(repOf, neighbours, switches);
        int[] specialStamp = new int[tors];
        int[][] members = new int[tors][];   // one switch's group contents toward each ToR, reused switch after switch
        Object2ObjectOpenCustomHashMap<int[], int[]> rows = new Object2ObjectOpenCustomHashMap<>(IntArrays.HASH_STRATEGY);
        for (int s = 0; s < switches; s++) {
            int node = hosts + s;
            for (int t : special[s]) specialStamp[t] = s + 1;
            for (int t = 0; t < tors; t++) {
                int rep = repOf[t];
                if (rep == t) members[t] = group(s, t, repDist[t], -1, -1, peerSwitch, scratch);
                else if (specialStamp[t] == s + 1) members[t] = group(s, t, repDist[rep], topo.torNode(t) - hosts, topo.torNode(rep) - hosts, peerSwitch, scratch);
                else members[t] = members[rep];   // rep < t: already this switch's
            }
            // group ids in order of first appearance over the ToRs; equal contents share an id
            // (a representative's array is one object, so most look-ups end at the identity map)
            java.util.IdentityHashMap<int[], Integer> byIdentity = new java.util.IdentityHashMap<>();
            Object2IntOpenCustomHashMap<int[]> ids = new Object2IntOpenCustomHashMap<>(IntArrays.HASH_STRATEGY);
            ids.defaultReturnValue(-1);
            List<int[]> list = new ArrayList<>();
            int[] row = new int[tors];
            int self = topo.torIndex(node);
            for (int t = 0; t < tors; t++) {
                int[] m = members[t];
                if (m == null) {
                    row[t] = -1;
                    continue;
                }
                Integer known = byIdentity.get(m);
                if (known == null) {
                    int id = ids.getInt(m);
                    if (id < 0) {
                        id = list.size();
                        ids.put(m, id);
                        list.add(m);
                    }
                    byIdentity.put(m, id);
                    known = id;
                }
                row[t] = known;
            }
            // a ToR's own entry (-1, answered by groupToward) takes another ToR's value, so that the rows of
            // switches in one role (every ToR of a Clos, a pod's aggregation switches, all cores) are equal
            // and shared: a k=96 fat-tree keeps about a hundred rows instead of 11 520
            if (self >= 0 && tors > 1) row[self] = row[self == 0 ? 1 : 0];
            int[] shared = rows.putIfAbsent(row, row);
            groupByTor[s] = shared != null ? shared : row;
            groups[s] = list.toArray(new int[0][]);
            bundles[s] = new int[groups[s].length][][];
            for (int gi = 0; gi < groups[s].length; gi++) bundles[s][gi] = bundle(node, groups[s][gi]);
        }
    }

    /** Per switch, the ToRs t (not representatives) for which it is t's switch, t's representative's switch, or a neighbour of t. */
    private int[][] specialTors(int[] repOf, int[][] neighbours, int switches) {
        int hosts = topo.hostCount();
        int[] count = new int[switches];
        for (int t = 0; t < repOf.length; t++) {
            if (repOf[t] == t) continue;
            count[topo.torNode(t) - hosts]++;
            count[topo.torNode(repOf[t]) - hosts]++;
            for (int n : neighbours[t]) count[n]++;
        }
        int[][] out = new int[switches][];
        for (int s = 0; s < switches; s++) out[s] = new int[count[s]];
        Arrays.fill(count, 0);
        for (int t = 0; t < repOf.length; t++) {
            if (repOf[t] == t) continue;
            int a = topo.torNode(t) - hosts, b = topo.torNode(repOf[t]) - hosts;
            out[a][count[a]++] = t;
            out[b][count[b]++] = t;
            for (int n : neighbours[t]) out[n][count[n]++] = t;
        }
        return out;
    }

    /**
     * Local ports of switch {@code s} on shortest paths toward ToR index {@code t} (null at the ToR
     * itself): those whose peer is one hop nearer. {@code dist} is the distances from ToR switch
     * {@code b}'s class representative; with {@code a} the ToR's own switch, positions a and b
     * are swapped ({@code a = b = -1}: t is the representative).
     */
    private int[] group(int s, int t, int[] dist, int a, int b, int[][] peerSwitch, int[] scratch) {
        if (topo.torNode(t) == topo.hostCount() + s) return null;
        int d = distSwapped(dist, s, a, b);
        int n = 0;
        if (d != Integer.MAX_VALUE) {
            int[] peers = peerSwitch[s];
            for (int i = 0; i < peers.length; i++) {
                int peer = peers[i];
                if (peer >= 0 && distSwapped(dist, peer, a, b) == d - 1) scratch[n++] = i;
            }
        }
        return Arrays.copyOf(scratch, n);
    }

    private static int distSwapped(int[] dist, int x, int a, int b) {
        return x == a ? dist[b] : x == b ? dist[a] : dist[x];
    }

    /** Splits a group of local ports into bundles: ports to the same peer, peers in order of first appearance. */
    private int[][] bundle(int node, int[] group) {
        Map<Integer, IntArrayList> byPeer = new java.util.LinkedHashMap<>();
        for (int local : group) {
            byPeer.computeIfAbsent(topo.peerNode(topo.firstPort(node) + local), k -> new IntArrayList()).add(local);
        }
        int[][] out = new int[byPeer.size()][];
        int i = 0;
        for (IntArrayList l : byPeer.values()) out[i++] = l.toIntArray();
        return out;
    }

    /** Hop distances from a ToR to every switch (index node - hosts), over switches only; {@code queue} is scratch space of one slot per switch. */
    private int[] bfs(int torNode, int[] queue) {
        int hosts = topo.hostCount();
        int[] d = new int[topo.nodeCount() - hosts];
        Arrays.fill(d, Integer.MAX_VALUE);
        d[torNode - hosts] = 0;
        queue[0] = torNode;
        int head = 0, tail = 1;
        while (head < tail) {
            int u = queue[head++];
            int first = topo.firstPort(u);
            for (int i = 0, n = topo.portsOf(u); i < n; i++) {
                int port = first + i;
                if (linkDown[topo.portLink(port)]) continue;
                int v = topo.peerNode(port);
                if (topo.isHost(v) || d[v - hosts] != Integer.MAX_VALUE) continue;
                d[v - hosts] = d[u - hosts] + 1;
                queue[tail++] = v;
            }
        }
        return d;
    }

    /** Links between the two ToRs farthest apart, on a shortest path (0 with one ToR): 2 in a leaf-spine, 4 in a fat-tree. */
    public int maxTorHops() {
        return maxTorHops;
    }

    /**
     * Whether a packet from {@code srcHost} can reach {@code dstHost} over links that are up: false
     * between the pieces of a fabric in pieces (planes, rails without spines).
     */
    public boolean reachable(int srcHost, int dstHost) {
        int srcTor = topo.hostTor(srcHost), dstTor = topo.hostTor(dstHost);
        return srcTor == dstTor || groupsOf(srcTor)[groupToward(srcTor, topo.torIndex(dstTor))].length > 0;
    }

    /** Groups of one switch, indexed by group id; each is a list of local port indices. */
    public int[][] groupsOf(int switchNode) {
        return groups[switchNode - topo.hostCount()];
    }

    /** Group id toward a destination ToR (index), or -1 when the switch is that ToR. */
    public int groupToward(int switchNode, int torIndex) {
        return torIndex == topo.torIndex(switchNode) ? -1 : groupByTor[switchNode - topo.hostCount()][torIndex];
    }

    /** Bundles of one switch, indexed by group id: per next-hop switch, the local ports (LAG members) to it. */
    public int[][][] bundlesOf(int switchNode) {
        return bundles[switchNode - topo.hostCount()];
    }

    /** Static (all links up) next-hop bundles a switch uses toward a host (one per next-hop node). */
    public int[][] nextBundles(int switchNode, int dstHost) {
        int tor = topo.hostTor(dstHost);
        if (tor == switchNode) return new int[][] {{torPortToHost[dstHost]}};
        return bundlesOf(switchNode)[groupToward(switchNode, topo.torIndex(tor))];
    }

    /**
     * Group id per destination ToR index (shared with every switch whose ids are equal; read only). At a
     * ToR the entry of its own index is not -1 but another ToR's group: use {@link #groupToward} or skip it.
     */
    public int[] groupByTor(int switchNode) {
        return groupByTor[switchNode - topo.hostCount()];
    }

    /** Local port index at the host's ToR leading down to the host. */
    public int torPortToHost(int host) {
        return torPortToHost[host];
    }

    public int[] torPortToHost() {
        return torPortToHost;
    }

    /** Static (all links up) next-hop group a switch uses toward a host. */
    public int[] nextHops(int switchNode, int dstHost) {
        int tor = topo.hostTor(dstHost);
        if (tor == switchNode) return new int[] {torPortToHost[dstHost]};
        return groupsOf(switchNode)[groupToward(switchNode, topo.torIndex(tor))];
    }

    /** Next-hop switches one byte of a path ID can name: a switch with more would alias paths (byte mod choices). */
    public static final int MAX_PATH_CHOICES = 256;

    /** A switch and its largest number of equal-cost next-hop switches toward any destination ToR. */
    public record Choice(int switchNode, int nextHops) {}

    /** The switch with the most equal-cost next-hop switches (bundles) toward one destination; the first such in node order. */
    public Choice widestChoice() {
        Choice widest = new Choice(-1, 0);
        for (int s = 0; s < bundles.length; s++) {
            for (int[][] b : bundles[s]) {
                if (b.length > widest.nextHops()) widest = new Choice(topo.hostCount() + s, b.length);
            }
        }
        return widest;
    }

    /**
     * The switch with the most choices a path ID byte indexes toward one destination under
     * {@code control}: next-hop switches (LAG) or egress ports, bundle members included (PORT).
     */
    public Choice widestChoice(PathControl control) {
        if (control == PathControl.LAG) return widestChoice();
        Choice widest = new Choice(-1, 0);
        for (int s = 0; s < bundles.length; s++) {
            for (int[][] b : bundles[s]) {
                int ports = flatten(b).length;
                if (ports > widest.nextHops()) widest = new Choice(topo.hostCount() + s, ports);
            }
        }
        return widest;
    }

    /** Number of distinct switch-level source routes between the ToRs of two hosts. */
    public int pathCount(int srcHost, int dstHost) {
        return pathIds(srcHost, dstHost).length;
    }

    /** All path IDs (switch-level paths) between two hosts' ToRs in stable order (one when they share a ToR). */
    public int[] pathIds(int srcHost, int dstHost) {
        return pathIds(srcHost, dstHost, PathControl.LAG);
    }

    /** All path IDs between two hosts' ToRs under {@code control}, in increasing byte order per hop (one when they share a ToR). */
    public int[] pathIds(int srcHost, int dstHost, PathControl control) {
        IntArrayList out = new IntArrayList();
        if (control == PathControl.LAG) {
            enumerate(topo.hostTor(srcHost), dstHost, 0, 0, out);
        } else {
            enumeratePorts(topo.hostTor(srcHost), dstHost, 0, 0, out);
        }
        return out.toIntArray();
    }

    private void enumeratePorts(int node, int dstHost, int idSoFar, int shift, IntArrayList out) {
        if (node == topo.hostTor(dstHost)) {
            out.add(idSoFar);
            return;
        }
        int[] c = portChoices(node, dstHost);
        int first = topo.firstPort(node);
        if (c.length == 1) {
            enumeratePorts(topo.peerNode(first + c[0]), dstHost, idSoFar, shift, out);
        } else if (isDownward(node, c)) {
            int s = Math.max(0, shift - 8);
            enumeratePorts(topo.peerNode(first + c[((idSoFar >>> s) & 0xFF) % c.length]), dstHost, idSoFar, s, out);
        } else {
            if (shift >= 32) throw new IllegalStateException("path longer than a 32-bit path ID can name");
            for (int i = 0; i < c.length; i++) enumeratePorts(topo.peerNode(first + c[i]), dstHost, idSoFar | (i << shift), shift + 8, out);
        }
    }

    /** The equal-cost egress ports (local) a switch has toward a host, bundles flattened: a port path ID's byte indexes these. */
    private int[] portChoices(int switchNode, int dstHost) {
        return flatten(nextBundles(switchNode, dstHost));
    }

    private static int[] flatten(int[][] bundles) {
        if (bundles.length == 1) return bundles[0];
        int n = 0;
        for (int[] b : bundles) n += b.length;
        int[] out = new int[n];
        int i = 0;
        for (int[] b : bundles) for (int m : b) out[i++] = m;
        return out;
    }

    /** Whether local ports {@code ports} of a switch lead down (to a lower tier): a port path ID re-reads a byte there. */
    private boolean isDownward(int switchNode, int[] ports) {
        return ports.length > 0 && topo.tier(topo.peerNode(topo.firstPort(switchNode) + ports[0])).ordinal() < topo.tier(switchNode).ordinal();
    }

    /**
     * Per group of {@link #groupsOf} (index = group id): its ports as a port path ID's byte indexes
     * them, bundle by bundle ({@link #bundlesOf}) and member by member.
     */
    public int[][] portGroupsOf(int switchNode) {
        int[][][] b = bundlesOf(switchNode);
        int[][] out = new int[b.length][];
        for (int g = 0; g < b.length; g++) out[g] = flatten(b[g]);
        return out;
    }

    /** Per group of {@link #groupsOf}: whether it leads down (next hops in a lower tier), where a port path ID re-reads a byte. */
    public boolean[] downGroupsOf(int switchNode) {
        int[][] g = portGroupsOf(switchNode);
        boolean[] out = new boolean[g.length];
        for (int i = 0; i < g.length; i++) out[i] = isDownward(switchNode, g[i]);
        return out;
    }

    private void enumerate(int node, int dstHost, int idSoFar, int shift, IntArrayList out) {
        if (node == topo.hostTor(dstHost)) {
            out.add(idSoFar);
            return;
        }
        int[][] b = nextBundles(node, dstHost);
        if (b.length == 1) {
            enumerate(topo.peerNode(topo.firstPort(node) + b[0][0]), dstHost, idSoFar, shift, out);
            return;
        }
        if (shift >= 32) throw new IllegalStateException("path longer than a 32-bit path ID can name");
        for (int i = 0; i < b.length; i++) {
            enumerate(topo.peerNode(topo.firstPort(node) + b[i][0]), dstHost, idSoFar | (i << shift), shift + 8, out);
        }
    }

    /**
     * The best case of every equal-cost path between two hosts at once: per hop (the source's NIC
     * link first, then each switch egress, the last one into the destination) the fastest rate of
     * any link a shortest path can take at that hop (every LAG member counted), and the smallest
     * propagation summed hop by hop. A flow on any of these paths, alone, is no faster than over
     * these rates and this propagation, so it is a lower bound that does not depend on which path
     * a scheme picks (on a fabric whose equal-cost links are alike it is every path's own figure).
     * {@code links}: per hop, how many links the shortest paths can take there (every LAG member
     * counted; 1 for the NIC link), the parallel capacity of a flow that is on several paths at once.
     */
    public record PathBound(long[] ratesBps, long latencyPs, int[] links) {}

    public PathBound bestPath(int srcHost, int dstHost) {
        int srcTor = topo.hostTor(srcHost);
        int dstTor = topo.hostTor(dstHost);
        long key = (long) srcTor << 32 | dstTor;
        SwitchHops mid;
        synchronized (switchHops) {
            mid = switchHops.get(key);
        }
        if (mid == null) {
            mid = switchHops(srcTor, dstTor, srcHost, dstHost);
            synchronized (switchHops) {
                switchHops.put(key, mid);
            }
        }
        int nic = topo.hostPort(srcHost);
        int last = topo.firstPort(dstTor) + torPortToHost[dstHost];   // the destination ToR's port to the host
        int n = mid.ratesBps().length + 2;
        long[] rates = new long[n];
        int[] links = new int[n];
        rates[0] = topo.portRateBps(nic);
        links[0] = 1;
        System.arraycopy(mid.ratesBps(), 0, rates, 1, n - 2);
        System.arraycopy(mid.links(), 0, links, 1, n - 2);
        rates[n - 1] = topo.portRateBps(last);
        links[n - 1] = 1;
        return new PathBound(rates, topo.portLatencyPs(nic) + mid.latencyPs() + topo.portLatencyPs(last), links);
    }

    /** {@link #bestPath}'s switch hops from one ToR until the destination ToR (the same for every pair of hosts under them). */
    private record SwitchHops(long[] ratesBps, long latencyPs, int[] links) {}

    // bestPath's switch hops by (source ToR node << 32 | destination ToR node): a collective's
    // million host pairs share a few thousand ToR pairs (a 1024-rank all-to-all spent a fifth of
    // its run here). Synchronized: a Routing may be read by several threads.
    private final Long2ObjectOpenHashMap<SwitchHops> switchHops = new Long2ObjectOpenHashMap<>();

    /** Per thread: a stamp per node marking the next layer's members (no hash set per layer, no clearing). */
    private final ThreadLocal<int[]> layerStamps = new ThreadLocal<>();
    private final ThreadLocal<int[]> layerStamp = ThreadLocal.withInitial(() -> new int[1]);

    /** One step of the layer walk: the hop's fastest rate, nearest latency, link count, and the next layer. */
    private record Step(long fastest, long nearest, int count, IntArrayList next) {}

    /** From every node of {@code layer} toward ToR index {@code t}: the hop's rates, latencies, links and next nodes. */
    private Step step(IntArrayList layer, int t) {
        int[] stamps = layerStamps.get();
        if (stamps == null) layerStamps.set(stamps = new int[topo.nodeCount()]);
        int[] counter = layerStamp.get();
        int stamp = ++counter[0];
        if (stamp == Integer.MAX_VALUE) {   // wrapped: start the stamps afresh
            Arrays.fill(stamps, 0);
            counter[0] = stamp = 1;
        }
        long fastest = 0;
        long nearest = Long.MAX_VALUE;
        int count = 0;
        IntArrayList next = new IntArrayList();
        for (int li = 0; li < layer.size(); li++) {
            int node = layer.getInt(li);
            int first = topo.firstPort(node);
            for (int[] bundle : bundlesOf(node)[groupToward(node, t)]) {
                count += bundle.length;
                for (int local : bundle) {
                    int port = first + local;
                    fastest = Math.max(fastest, topo.portRateBps(port));
                    nearest = Math.min(nearest, topo.portLatencyPs(port));
                }
                int peer = topo.peerNode(first + bundle[0]);
                if (stamps[peer] != stamp) {
                    stamps[peer] = stamp;
                    next.add(peer);
                }
            }
        }
        return new Step(fastest, nearest, count, next);
    }

    /**
     * Layer by layer from {@code srcTor} until the layer is the destination ToR alone (shortest paths
     * are of equal length). Between ToRs of different classes ({@link #torClass}) whose neighbours
     * are all non-ToR switches, only the first hop (the source ToR's own links) and the last (the
     * links into the destination ToR) depend on the ToRs themselves: the layers in between are
     * those between the two classes' representatives, computed once per pair of classes
     * ({@link #middleHops}), so a permutation over a k=96 fat-tree walks 96 x 96 middles rather
     * than one per pair of ToRs.
     */
    private SwitchHops switchHops(int srcTor, int dstTor, int srcHost, int dstHost) {
        int s = topo.torIndex(srcTor), d = topo.torIndex(dstTor);
        Middle middle = torClass[s] == torClass[d] || !torUplinksOnly[s] || !torUplinksOnly[d] ? null : middleHops(torClass[s], torClass[d]);
        if (middle == null) return walk(srcTor, d, srcHost, dstHost);
        Step first = step(IntArrayList.of(srcTor), d);
        Step last = step(middle.lastLayer(), d);
        if (first.fastest() == 0 || last.fastest() == 0) throw new IllegalStateException("no path from host " + srcHost + " to host " + dstHost);
        int n = middle.ratesBps().length + 2;
        long[] rates = new long[n];
        int[] links = new int[n];
        rates[0] = first.fastest();
        links[0] = first.count();
        System.arraycopy(middle.ratesBps(), 0, rates, 1, n - 2);
        System.arraycopy(middle.links(), 0, links, 1, n - 2);
        rates[n - 1] = last.fastest();
        links[n - 1] = last.count();
        return new SwitchHops(rates, first.nearest() + middle.latencyPs() + last.nearest(), links);
    }

    /** The plain walk, for pairs {@link #middleHops} does not cover. */
    private SwitchHops walk(int srcTor, int dstIndex, int srcHost, int dstHost) {
        LongArrayList rates = new LongArrayList();
        IntArrayList links = new IntArrayList();
        long latency = 0;
        int dstTor = topo.torNode(dstIndex);
        IntArrayList layer = IntArrayList.of(srcTor);
        while (!layer.contains(dstTor)) {
            Step st = step(layer, dstIndex);
            if (st.fastest() == 0) throw new IllegalStateException("no path from host " + srcHost + " to host " + dstHost);
            rates.add(st.fastest());
            links.add(st.count());
            latency += st.nearest();
            layer = st.next();
        }
        return new SwitchHops(rates.toLongArray(), latency, links.toIntArray());
    }

    /**
     * Between two ToR classes' representatives: the hops after the first and before the last, and
     * the layer the last hop leaves from. Null when a layer in between holds a ToR (the walk toward
     * another member of the class could end there) or no path joins them: such pairs walk in full.
     */
    private record Middle(long[] ratesBps, long latencyPs, int[] links, IntArrayList lastLayer) {}

    private static final Middle NO_MIDDLE = new Middle(new long[0], 0, new int[0], new IntArrayList());

    private final Long2ObjectOpenHashMap<Middle> middles = new Long2ObjectOpenHashMap<>();

    private Middle middleHops(int srcClass, int dstClass) {
        long key = (long) srcClass << 32 | dstClass;
        Middle m;
        synchronized (middles) {
            m = middles.get(key);
        }
        if (m == null) {
            m = computeMiddle(srcClass, dstClass);
            synchronized (middles) {
                middles.put(key, m);
            }
        }
        return m == NO_MIDDLE ? null : m;
    }

    private Middle computeMiddle(int srcClass, int dstClass) {
        int dstTor = topo.torNode(dstClass);
        LongArrayList rates = new LongArrayList();
        IntArrayList links = new IntArrayList();
        long latency = 0;
        Step st = step(IntArrayList.of(topo.torNode(srcClass)), dstClass);
        IntArrayList layer = st.next();
        while (true) {
            if (layer.isEmpty()) return NO_MIDDLE;
            for (int i = 0; i < layer.size(); i++) if (topo.torIndex(layer.getInt(i)) >= 0) return NO_MIDDLE;
            st = step(layer, dstClass);
            if (st.next().contains(dstTor)) return new Middle(rates.toLongArray(), latency, links.toIntArray(), layer);
            if (st.fastest() == 0) return NO_MIDDLE;
            rates.add(st.fastest());
            links.add(st.count());
            latency += st.nearest();
            layer = st.next();
        }
    }

    /**
     * Global egress ports (switch hops, then the ToR's port to the host) a source route takes;
     * on a bundle the first member stands for the bundle (switches hash the actual member).
     */
    public int[] pathPorts(int srcHost, int dstHost, int pathId) {
        IntArrayList ports = new IntArrayList();
        int node = topo.hostTor(srcHost);
        int id = pathId;
        while (true) {
            int[][] b = nextBundles(node, dstHost);
            int choice = 0;
            if (b.length > 1) {
                choice = (id & 0xFF) % b.length;
                id >>>= 8;
            }
            int port = topo.firstPort(node) + b[choice][0];
            ports.add(port);
            if (node == topo.hostTor(dstHost)) break;
            node = topo.peerNode(port);
        }
        return ports.toIntArray();
    }

    /** Global egress ports a source route under {@code control} takes (for PORT exactly the links it crosses). */
    public int[] pathPorts(int srcHost, int dstHost, int pathId, PathControl control) {
        if (control == PathControl.LAG) return pathPorts(srcHost, dstHost, pathId);
        IntArrayList ports = new IntArrayList();
        int node = topo.hostTor(srcHost);
        int shift = 0;
        while (true) {
            int[] c = portChoices(node, dstHost);
            int choice = 0;
            if (c.length > 1) {
                if (isDownward(node, c)) {
                    shift = Math.max(0, shift - 8);
                    choice = ((pathId >>> shift) & 0xFF) % c.length;
                } else {
                    choice = ((pathId >>> shift) & 0xFF) % c.length;
                    shift += 8;
                }
            }
            int port = topo.firstPort(node) + c[choice];
            ports.add(port);
            if (node == topo.hostTor(dstHost)) break;
            node = topo.peerNode(port);
        }
        return ports.toIntArray();
    }

    /**
     * Per hop, the global egress ports a source route under {@code control} may take: the whole
     * bundle for LAG ({@link #pathBundles(int, int, int)}), the one port for PORT.
     */
    public int[][] pathBundles(int srcHost, int dstHost, int pathId, PathControl control) {
        if (control == PathControl.LAG) return pathBundles(srcHost, dstHost, pathId);
        int[] ports = pathPorts(srcHost, dstHost, pathId, control);
        int[][] out = new int[ports.length][];
        for (int i = 0; i < ports.length; i++) out[i] = new int[] {ports[i]};
        return out;
    }

    /** Per hop of {@link #pathPorts}, the global egress ports of the whole bundle (the LAG members the switch hashes over). */
    public int[][] pathBundles(int srcHost, int dstHost, int pathId) {
        int[] first = pathPorts(srcHost, dstHost, pathId);
        int[][] out = new int[first.length][];
        for (int i = 0; i < first.length; i++) {
            int node = topo.portOwner(first[i]);
            for (int[] b : nextBundles(node, dstHost)) {
                if (topo.firstPort(node) + b[0] != first[i]) continue;
                out[i] = new int[b.length];
                for (int m = 0; m < b.length; m++) out[i][m] = topo.firstPort(node) + b[m];
            }
        }
        return out;
    }

    /**
     * The path ID under {@code control} that takes the reverse direction of the same links (for
     * ACKs): for PORT the bytes of the reverse's upward hops name the ports the forward path came
     * down on; its downward hops follow from them (member mirrored), so the reverse crosses exactly
     * the forward links.
     */
    public int reversePathId(int srcHost, int dstHost, int pathId, PathControl control) {
        if (control == PathControl.LAG) return reversePathId(srcHost, dstHost, pathId);
        int[] fwd = pathPorts(srcHost, dstHost, pathId, control);
        int id = 0;
        int shift = 0;
        for (int i = fwd.length - 2; i >= 0; i--) {
            int rev = topo.portPeer(fwd[i]);
            int node = topo.portOwner(rev);
            int[] c = portChoices(node, srcHost);
            if (c.length > 1 && !isDownward(node, c)) {
                int local = topo.localIndex(rev);
                int idx = -1;
                for (int j = 0; j < c.length; j++) if (c[j] == local) idx = j;
                if (idx < 0) throw new IllegalStateException("reverse hop not on a shortest path");
                id |= idx << shift;
                shift += 8;
            }
        }
        return id;
    }

    /** The path ID that takes the reverse direction of the same links (for ACKs). */
    public int reversePathId(int srcHost, int dstHost, int pathId) {
        int[] fwd = pathPorts(srcHost, dstHost, pathId);
        int id = 0;
        int shift = 0;
        // Forward switch-to-switch ports, walked backwards; the final ToR->host port has no reverse hop.
        for (int i = fwd.length - 2; i >= 0; i--) {
            int rev = topo.portPeer(fwd[i]);
            int node = topo.portOwner(rev);
            int[][] b = nextBundles(node, srcHost);
            if (b.length > 1) {
                int local = topo.localIndex(rev);
                int idx = -1;
                for (int j = 0; j < b.length; j++) for (int m : b[j]) if (m == local) idx = j;
                if (idx < 0) throw new IllegalStateException("reverse hop not on a shortest path");
                id |= idx << shift;
                shift += 8;
            }
        }
        return id;
    }
}
