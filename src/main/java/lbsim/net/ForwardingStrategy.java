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

    /**
     * Sees every packet arriving at the switch before it is routed. Returns true if the
     * strategy took the packet (held it with {@link Switch#hold}, or consumed a control packet
     * with {@link Switch#consume}); false lets the switch forward it as usual.
     */
    default boolean intercept(Switch sw, Packet p, int in) {
        return false;
    }

    /** Adds this switch's scheme counters (summed over switches into summary.json's {@code lb}). */
    default void reportCounters(java.util.Map<String, Long> into) {}

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

    /**
     * Whether the switch may send one flow's packets to different next hops while earlier ones are
     * still queued or on the wire (per-packet choices, flowlets, rerouting): one flow can then be on
     * several paths at once, and its idle FCT is the multi-path one ({@code metrics/IdleFct}). Read
     * once per run.
     */
    default boolean splitsFlows() {
        return false;
    }
}
