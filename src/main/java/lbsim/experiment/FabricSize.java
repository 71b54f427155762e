package lbsim.experiment;

/**
 * The size of a generated fabric (leaf-spine or fat-tree), counted from its keys before it is
 * built, and a lower bound of the heap it takes: a fabric that cannot fit is refused (exit 2)
 * naming the keys that shrink it, instead of building for minutes and running out of memory.
 */
record FabricSize(long hosts, long links, long switches, long tors) {
    /**
     * Heap per link at least: its two ports with their queues and counters (about 1.1 KiB per link
     * measured on leaf-spine and fat-tree fabrics of 4 000 to 25 000 links, hosts included).
     */
    static final long HEAP_BYTES_PER_LINK = 1024;
    /** Routing keeps, per switch and per ToR, the ECMP group index and its member ports (an int and a reference). */
    static final long HEAP_BYTES_PER_SWITCH_TOR = 8;

    static FabricSize leafSpine(long leaves, long spines, long hostsPerLeaf, long parallel) {
        long hosts = leaves * hostsPerLeaf;
        return new FabricSize(hosts, hosts + leaves * spines * parallel, leaves + spines, leaves);
    }

    /** Aggregation switch j of each pod connects to cores / aggs_per_pod cores: pods x cores uplinks of the aggregation tier. */
    static FabricSize fatTree(long pods, long torsPerPod, long aggsPerPod, long cores, long hostsPerTor, long parallel) {
        long tors = pods * torsPerPod;
        long hosts = tors * hostsPerTor;
        long links = hosts + (tors * aggsPerPod + pods * cores) * parallel;
        return new FabricSize(hosts, links, tors + pods * aggsPerPod + cores, tors);
    }

    /** A lower bound of the heap the built fabric takes, before any packet moves. */
    long heapBytes() {
        // in doubles: 100 000 pods of 100 000 ToRs pass a long in switches x ToRs
        return (long) Math.min(Long.MAX_VALUE, links * (double) HEAP_BYTES_PER_LINK + switches * (double) tors * HEAP_BYTES_PER_SWITCH_TOR);
    }

    /**
     * Refuses a fabric whose {@link #heapBytes()} passes {@code heapBytes} (or whose host count
     * passes what an index holds), naming {@code keys}, the keys that shrink it.
     */
    void check(Section s, String keys, long heapBytes) {
        if (hosts <= Integer.MAX_VALUE && links <= Integer.MAX_VALUE && heapBytes() <= heapBytes) return;
        throw s.error(keys.split(",")[0], "a fabric of " + hosts + " hosts, " + links + " links and " + switches
                + " switches needs at least " + (heapBytes() >> 20) + " MiB of Java heap before any packet moves (about "
                + HEAP_BYTES_PER_LINK + " B per link and " + HEAP_BYTES_PER_SWITCH_TOR + " B per switch per ToR for routing);"
                + " this JVM has " + (heapBytes >> 20) + " MiB. Make it smaller (topology." + keys.replace(", ", ", topology.")
                + ") or give Java a larger heap (LBSIM_JAVA_OPTS=\"-Xmx20g\" ./lbsim ...)");
    }
}
