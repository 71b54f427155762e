package lbsim.workload.collective;

/** Emits one collective's flows for one algorithm. */
interface CollectiveAlgorithm {

    /** Rejects parameters this algorithm cannot run (before any flow is appended). */
    default void validate(CollectiveContext ctx) {}

    /** Appends the flows and returns the token that is met when the whole collective is done. */
    Completion emit(CollectiveContext ctx, FlowEmitter out);
}
