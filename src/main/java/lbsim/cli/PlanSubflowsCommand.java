package lbsim.cli;

import lbsim.plan.PlanFormat;
import lbsim.plan.SubflowPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lbsim plan subflows}: McClure et al.'s subflow count for dupACK-based loss recovery under spraying. */
@Command(name = "subflows", mixinStandardHelpOptions = true,
        description = "McClure et al. SF approach (Sec. 7 Eq. 1): smallest s with"
                + " s*f*t*p >= h*q, so that reordering from spraying cannot reach the dupACK threshold.")
public final class PlanSubflowsCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Mixin
    PlanFormatOption format;

    @Option(names = "--queue-bytes", required = true, paramLabel = "Q", converter = ByteSizeConverter.class,
            description = "Per-link queue size q in bytes (units allowed: 32KiB, 1MB).")
    long queueBytes;

    @Option(names = "--mtu", required = true, paramLabel = "P", converter = ByteSizeConverter.class,
            description = "Data packet size p in bytes (units allowed: 4KiB).")
    long mtu;

    @Option(names = "--flows-per-host", required = true, paramLabel = "F", description = "Concurrent flows per host f.")
    long flowsPerHost;

    @Option(names = "--dupack", required = true, paramLabel = "T", description = "Duplicate-ACK threshold t.")
    long dupack;

    @Option(names = "--queues", defaultValue = "4", paramLabel = "H",
            description = "Queues whose delay can differ between packets of one flow: 4 in a 3-tier fat-tree"
                    + " (the paper), 2 in a leaf-spine (default: ${DEFAULT-VALUE}).")
    int queues;

    @Option(names = "--link-gbps", paramLabel = "B",
            description = "Link rate in Gbit/s; only reported (D = h*q/b, subflow rate b/(f*s)).")
    Double linkGbps;

    @Override
    public void run() {
        PlanFormat f = format.format();
        PlanCommand.print(spec, SubflowPlan.compute(queueBytes, mtu, flowsPerHost, dupack, queues, linkGbps), f);
    }
}
