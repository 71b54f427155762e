package lbsim.net;

/**
 * A switch's choice among equal-cost next hops. Implementations live in the lb package; one
 * instance per switch, so per-switch state (seeds, flowlet tables) belongs to the instance.
 */
public interface ForwardingStrategy {
    /**
     * Picks one of {@code candidates} (local port indices, length >= 2) for the packet.
     * Returns a local port index.
     */
    int choose(Switch sw, Packet p, int[] candidates);

    /** Whether the switch must call {@link #onForward} for every packet it forwards (read once). */
    default boolean observesForwarding() {
        return false;
    }

    /**
     * Called for every packet the switch admits to an egress queue (after routing, admission and
     * ECN marking, before enqueue), e.g. to meter egress load or read and write header fields.
     * {@code in} and {@code out} are local port indices.
     */
    default void onForward(Switch sw, Packet p, int in, int out) {}
}
