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
}
