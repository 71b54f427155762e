package lbsim.topology;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Shortest-path (up-down in a Clos) equal-cost next-hop groups for every switch toward every
 * ToR, and stable source-route path IDs.
 *
 * <p>A path ID spends one byte at every hop whose equal-cost group has more than one member:
 * the byte, modulo the group size, picks the member (Ethereal §3: the 16-bit path ID's first
 * byte is read at the ToR, the second at the spine). Groups list ports in port order, so the
 * numbering is stable for a given topology.
 */
public final class Routing {
    private final Topology topo;
    /** Per switch (node - hosts): group id per destination ToR index; -1 at the ToR itself. */
    private final int[][] groupByTor;
    /** Per switch: distinct groups of local port indices. */
    private final int[][][] groups;
    /** Per host: local index of the port at its ToR that leads to it. */
    private final int[] torPortToHost;

    private final boolean[] linkDown;

    Routing(Topology topo, boolean[] linkDown) {
        this.topo = topo;
        this.linkDown = linkDown == null ? new boolean[topo.linkCount()] : linkDown.clone();
        int hosts = topo.hostCount();
        int switches = topo.nodeCount() - hosts;
        int tors = topo.torCount();
        groupByTor = new int[switches][tors];
        groups = new int[switches][][];
        torPortToHost = new int[hosts];
        for (int h = 0; h < hosts; h++) torPortToHost[h] = topo.localIndex(topo.portPeer(topo.hostPort(h)));

        int[][] dist = new int[tors][];
        for (int t = 0; t < tors; t++) dist[t] = bfs(topo.torNode(t));

        for (int s = 0; s < switches; s++) {
            int node = hosts + s;
            Map<String, Integer> ids = new HashMap<>();
            List<int[]> list = new ArrayList<>();
            for (int t = 0; t < tors; t++) {
                if (topo.torNode(t) == node) {
                    groupByTor[s][t] = -1;
                    continue;
                }
                int d = dist[t][s];
                IntArrayList members = new IntArrayList();
                if (d != Integer.MAX_VALUE) {
                    for (int i = 0; i < topo.portsOf(node); i++) {
                        int port = topo.firstPort(node) + i;
                        if (this.linkDown[topo.portLink(port)]) continue;
                        int peer = topo.peerNode(port);
                        if (!topo.isHost(peer) && dist[t][peer - hosts] == d - 1) members.add(i);
                    }
                }
                int[] g = members.toIntArray();
                String key = Arrays.toString(g);
                Integer id = ids.get(key);
                if (id == null) {
                    id = list.size();
                    ids.put(key, id);
                    list.add(g);
                }
                groupByTor[s][t] = id;
            }
            groups[s] = list.toArray(new int[0][]);
        }
    }

    /** Hop distances from a ToR to every switch (index node - hosts), over switches only. */
    private int[] bfs(int torNode) {
        int hosts = topo.hostCount();
        int[] d = new int[topo.nodeCount() - hosts];
        Arrays.fill(d, Integer.MAX_VALUE);
        ArrayDeque<Integer> q = new ArrayDeque<>();
        d[torNode - hosts] = 0;
        q.add(torNode);
        while (!q.isEmpty()) {
            int u = q.poll();
            for (int i = 0; i < topo.portsOf(u); i++) {
                int port = topo.firstPort(u) + i;
                if (linkDown[topo.portLink(port)]) continue;
                int v = topo.peerNode(port);
                if (topo.isHost(v) || d[v - hosts] != Integer.MAX_VALUE) continue;
                d[v - hosts] = d[u - hosts] + 1;
                q.add(v);
            }
        }
        return d;
    }

    /** Groups of one switch, indexed by group id; each is a list of local port indices. */
    public int[][] groupsOf(int switchNode) {
        return groups[switchNode - topo.hostCount()];
    }

    /** Group id toward a destination ToR (index), or -1 when the switch is that ToR. */
    public int groupToward(int switchNode, int torIndex) {
        return groupByTor[switchNode - topo.hostCount()][torIndex];
    }

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

    /** Number of distinct source routes between the ToRs of two hosts. */
    public int pathCount(int srcHost, int dstHost) {
        return pathIds(srcHost, dstHost).length;
    }

    /** All path IDs between two hosts' ToRs in stable order (one when they share a ToR). */
    public int[] pathIds(int srcHost, int dstHost) {
        IntArrayList out = new IntArrayList();
        enumerate(topo.hostTor(srcHost), dstHost, 0, 0, out);
        return out.toIntArray();
    }

    private void enumerate(int node, int dstHost, int idSoFar, int shift, IntArrayList out) {
        if (node == topo.hostTor(dstHost)) {
            out.add(idSoFar);
            return;
        }
        int[] g = nextHops(node, dstHost);
        if (g.length == 1) {
            enumerate(topo.peerNode(topo.firstPort(node) + g[0]), dstHost, idSoFar, shift, out);
            return;
        }
        if (shift >= 32) throw new IllegalStateException("path longer than a 32-bit path ID can name");
        for (int i = 0; i < g.length; i++) {
            enumerate(topo.peerNode(topo.firstPort(node) + g[i]), dstHost, idSoFar | (i << shift), shift + 8, out);
        }
    }

    /** Global egress ports (switch hops, then the ToR's port to the host) a source route takes. */
    public int[] pathPorts(int srcHost, int dstHost, int pathId) {
        IntArrayList ports = new IntArrayList();
        int node = topo.hostTor(srcHost);
        int id = pathId;
        while (true) {
            int[] g = nextHops(node, dstHost);
            int choice = 0;
            if (g.length > 1) {
                choice = (id & 0xFF) % g.length;
                id >>>= 8;
            }
            int port = topo.firstPort(node) + g[choice];
            ports.add(port);
            if (node == topo.hostTor(dstHost)) break;
            node = topo.peerNode(port);
        }
        return ports.toIntArray();
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
            int[] g = nextHops(node, srcHost);
            if (g.length > 1) {
                int local = topo.localIndex(rev);
                int idx = -1;
                for (int j = 0; j < g.length; j++) if (g[j] == local) idx = j;
                if (idx < 0) throw new IllegalStateException("reverse hop not on a shortest path");
                id |= idx << shift;
                shift += 8;
            }
        }
        return id;
    }
}
