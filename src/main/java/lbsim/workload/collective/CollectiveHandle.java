package lbsim.workload.collective;

/**
 * What {@link Collectives#emit} appended: the group id, the flow id range, the flows whose
 * delivery ends the collective (no other flow of the collective waits for them) and the
 * time that still follows their delivery ({@code tailPs}: e.g. the intra-server all-gather
 * of a hierarchical all-reduce or a final reduction, which are not fabric flows).
 */
public record CollectiveHandle(int group, int firstFlow, int endFlow, int[] lastFlows, long tailPs) {

    public int flowCount() {
        return endFlow - firstFlow;
    }

    /** A token for chaining: the next collective starts after this one has fully finished. */
    public Completion done() {
        return Completion.after(lastFlows, tailPs);
    }
}
