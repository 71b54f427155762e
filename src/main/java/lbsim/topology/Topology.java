package lbsim.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Immutable fabric: nodes (hosts first, numbered 0..hosts-1, then switches), directed ports,
 * undirected links, and per-switch equal-cost next-hop groups toward every ToR.
 *
 * <p>Ports are numbered globally; the ports of node n are {@code firstPort(n) ..
 * firstPort(n+1)-1} and a port's local index is its offset from {@code firstPort(owner)}.
 */
public final class Topology {
    private final int hosts;
    private final String[] nodeName;
    private final Tier[] nodeTier;
    private final int[] firstPort;
    private final int[] portOwner;
    private final int[] portPeer;
    private final int[] portLink;
    private final long[] portRateBps;
    private final long[] portLatencyPs;
    private final String[] linkName;
    private final int[] linkPortA;
    private final int[] hostTor;
    private final int[] torNodes;
    private final int[] torIndexOfNode;
    private final Routing routing;
    private final Map<String, Integer> nodeByName = new LinkedHashMap<>();

    Topology(int hosts, String[] nodeName, Tier[] nodeTier, List<int[]> linkEnds, List<long[]> linkSpecs,
             List<String> linkNames) {
        this.hosts = hosts;
        this.nodeName = nodeName;
        this.nodeTier = nodeTier;
        int n = nodeName.length;
        for (int i = 0; i < n; i++) {
            if (nodeByName.put(nodeName[i], i) != null) throw new IllegalArgumentException("duplicate node " + nodeName[i]);
        }
        int links = linkEnds.size();
        int[] degree = new int[n];
        for (int[] e : linkEnds) {
            degree[e[0]]++;
            degree[e[1]]++;
        }
        firstPort = new int[n + 1];
        for (int i = 0; i < n; i++) firstPort[i + 1] = firstPort[i] + degree[i];
        int ports = firstPort[n];
        portOwner = new int[ports];
        portPeer = new int[ports];
        portLink = new int[ports];
        portRateBps = new long[ports];
        portLatencyPs = new long[ports];
        linkName = linkNames.toArray(new String[0]);
        linkPortA = new int[links];
        int[] fill = Arrays.copyOf(firstPort, n);
        for (int l = 0; l < links; l++) {
            int a = linkEnds.get(l)[0], b = linkEnds.get(l)[1];
            int pa = fill[a]++, pb = fill[b]++;
            portOwner[pa] = a;
            portOwner[pb] = b;
            portPeer[pa] = pb;
            portPeer[pb] = pa;
            portLink[pa] = l;
            portLink[pb] = l;
            long[] spec = linkSpecs.get(l);
            portRateBps[pa] = portRateBps[pb] = spec[0];
            portLatencyPs[pa] = portLatencyPs[pb] = spec[1];
            linkPortA[l] = pa;
        }
        hostTor = new int[hosts];
        torIndexOfNode = new int[n];
        Arrays.fill(torIndexOfNode, -1);
        List<Integer> tors = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (nodeTier[i] == Tier.TOR) {
                torIndexOfNode[i] = tors.size();
                tors.add(i);
            }
        }
        torNodes = tors.stream().mapToInt(Integer::intValue).toArray();
        for (int h = 0; h < hosts; h++) {
            if (nodeTier[h] != Tier.HOST) throw new IllegalArgumentException("nodes 0.." + (hosts - 1) + " must be hosts");
            if (degree[h] != 1) throw new IllegalArgumentException("host " + nodeName[h] + " must have exactly one link");
            int peer = portOwner[portPeer[firstPort[h]]];
            if (nodeTier[peer] != Tier.TOR) throw new IllegalArgumentException("host " + nodeName[h] + " must attach to a ToR");
            hostTor[h] = peer;
        }
        this.routing = new Routing(this, null);
    }

    public int hostCount() { return hosts; }
    public int nodeCount() { return nodeName.length; }
    public int portCount() { return portOwner.length; }
    public int linkCount() { return linkName.length; }
    public int torCount() { return torNodes.length; }

    public String nodeName(int node) { return nodeName[node]; }
    public Tier tier(int node) { return nodeTier[node]; }
    public boolean isHost(int node) { return node < hosts; }

    public int nodeId(String name) {
        Integer id = nodeByName.get(name);
        return id == null ? -1 : id;
    }

    public int firstPort(int node) { return firstPort[node]; }
    public int portsOf(int node) { return firstPort[node + 1] - firstPort[node]; }
    public int portOwner(int port) { return portOwner[port]; }
    public int portPeer(int port) { return portPeer[port]; }
    public int portLink(int port) { return portLink[port]; }
    public long portRateBps(int port) { return portRateBps[port]; }
    public long portLatencyPs(int port) { return portLatencyPs[port]; }
    public int localIndex(int port) { return port - firstPort[portOwner[port]]; }
    /** Node at the far end of a port. */
    public int peerNode(int port) { return portOwner[portPeer[port]]; }

    public String linkName(int link) { return linkName[link]; }
    /** The link's two directed ports: A side first (the end named first in its name). */
    public int linkPortA(int link) { return linkPortA[link]; }
    public int linkPortB(int link) { return portPeer[linkPortA[link]]; }

    /** Port name as "from->to" with the link's member suffix when it has one. */
    public String portName(int port) {
        String ln = linkName[portLink[port]];
        int slash = ln.indexOf('/');
        String suffix = slash < 0 ? "" : ln.substring(slash);
        return nodeName[portOwner[port]] + "->" + nodeName[peerNode(port)] + suffix;
    }

    public int hostTor(int host) { return hostTor[host]; }
    public int torIndex(int node) { return torIndexOfNode[node]; }
    public int torNode(int torIndex) { return torNodes[torIndex]; }
    /** The port of a host's NIC. */
    public int hostPort(int host) { return firstPort[host]; }

    /** Routing with every link up (the static tables source routes use). */
    public Routing routing() { return routing; }

    /**
     * The least propagation from host {@code src} to host {@code dst} over their equal-cost paths
     * (NIC link included; hop by hop, see {@link Routing#bestPath}): no packet arrives sooner.
     */
    public long minLatencyPs(int src, int dst) {
        return routing.bestPath(src, dst).latencyPs();
    }

    /** Routing recomputed on the fabric without the given links (after failure detection). */
    public Routing routingAvoiding(boolean[] linkDown) { return new Routing(this, linkDown); }

    /** Line rate of a host's NIC in bits per second. */
    public long hostRateBps(int host) { return portRateBps[firstPort[host]]; }

    /**
     * Links whose name matches a glob ("leaf0-spine1", "leaf*-spine4", "tor0-agg0/2"). Only
     * {@code *} (any run of characters but '/') and {@code ?} (one character) are wildcards;
     * every other character, {@code [ ] { }} included, stands for itself.
     */
    public int[] linksMatching(String glob) {
        java.util.regex.Pattern regex = globPattern(glob);
        List<Integer> out = new ArrayList<>();
        for (int l = 0; l < linkName.length; l++) {
            String name = linkName[l];
            int slash = name.indexOf('/');
            String bundle = slash < 0 ? name : name.substring(0, slash);
            if (regex.matcher(name).matches() || (glob.indexOf('/') < 0 && regex.matcher(bundle).matches())) out.add(l);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    static java.util.regex.Pattern globPattern(String glob) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*') re.append("[^/]*");
            else if (c == '?') re.append('.');
            else re.append(java.util.regex.Pattern.quote(String.valueOf(c)));
        }
        return java.util.regex.Pattern.compile(re.toString());
    }
}
