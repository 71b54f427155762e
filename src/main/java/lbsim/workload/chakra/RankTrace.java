package lbsim.workload.chakra;

import java.nio.file.Path;
import java.util.List;
import lbsim.workload.chakra.et.ExecutionTrace.Metadata;
import lbsim.workload.chakra.et.ExecutionTrace.Node;

/** One rank's decoded execution trace: its file, the metadata record and the nodes in file order. */
public record RankTrace(Path file, int rank, Metadata metadata, List<Node> nodes) {
    public RankTrace {
        nodes = List.copyOf(nodes);
    }
}
