package lbsim.workload.training;

import java.util.List;
import lbsim.workload.collective.Completion;

/** What {@link IterationGenerator} appended: every communication in order and the iteration's end token. */
public record Iteration(List<CollectiveRecord> collectives, Completion done, int microBatches) {

    public List<CollectiveRecord> phase(String phase) {
        return collectives.stream().filter(c -> c.phase().equals(phase)).toList();
    }

    /** Sum of sizeBytes over one phase. */
    public long bytes(String phase) {
        return phase(phase).stream().mapToLong(CollectiveRecord::sizeBytes).sum();
    }
}
