package lbsim.workload.collective;

import java.util.List;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;

/**
 * Lower bound on a group's completion read off its flow DAG on a non-blocking fabric: every flow
 * takes at least size / B + latency after its dependencies (plus gap) and starts no earlier than
 * the flows it follows ({@code afterSent}) have been sent, and every host must
 * serialise all bytes it sends and receives. Dependencies outside the group count as met at
 * time 0. Valid for any generator's output (collectives, training iterations).
 */
public final class DagLowerBound {
    private DagLowerBound() {}

    public static long ps(FlowGraph g, int group, double linkGbps, long latencyPs) {
        List<FlowSpec> flows = g.flows();
        double[] finish = new double[flows.size()];
        double[] sent = new double[flows.size()];
        double critical = 0;
        int hosts = g.maxHost() + 1;
        double[] sendBytes = new double[hosts];
        double[] recvBytes = new double[hosts];
        double[] earliest = new double[hosts];
        java.util.Arrays.fill(earliest, Double.MAX_VALUE);
        for (FlowSpec f : flows) {
            if (f.group() != group) continue;
            double ready = 0;
            for (int d : f.after()) if (flows.get(d).group() == group) ready = Math.max(ready, finish[d]);
            double begin = Math.max(f.startPs(), ready + f.gapPs());
            // a flow that follows another on its connection starts no earlier than that one's last byte left
            for (int d : f.afterSent()) if (flows.get(d).group() == group) begin = Math.max(begin, sent[d]);
            sent[f.id()] = begin + Rates.psAtGbps(f.sizeBytes(), linkGbps);
            finish[f.id()] = sent[f.id()] + latencyPs;
            critical = Math.max(critical, finish[f.id()]);
            sendBytes[f.src()] += f.sizeBytes();
            recvBytes[f.dst()] += f.sizeBytes();
            earliest[f.src()] = Math.min(earliest[f.src()], f.startPs());
            earliest[f.dst()] = Math.min(earliest[f.dst()], f.startPs());
        }
        double nic = 0;
        for (int h = 0; h < hosts; h++) {
            double bytes = Math.max(sendBytes[h], recvBytes[h]);
            if (bytes > 0) nic = Math.max(nic, earliest[h] + Rates.psAtGbps(bytes, linkGbps) + latencyPs);
        }
        return Math.round(Math.max(critical, nic));
    }
}
