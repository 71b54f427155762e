package lbsim.cli;

import java.util.ArrayList;
import java.util.List;
import lbsim.plan.DnlbInput;
import lbsim.plan.DnlbPlan;
import lbsim.plan.PlanFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lbsim plan dnlb}: CTCCL/DNLB leaf ACL + PBR configuration and per-QP UDP source ports. */
@Command(name = "dnlb", mixinStandardHelpOptions = true,
        description = {"CTCCL/DNLB (Li et al., ICS '25, Sec. 3.2 Eqs. 1-4, Sec. 4.1): split the RoCEv2 source ports"
                + " [0xC000, 0xFFFF] into one range per leaf uplink, give each QP a port in its uplink's range.",
                "text: ACL + route-map per leaf; json/csv: rows nic, qp, sport, uplink (0-based uplink n = ACL udf(n+1))."})
public final class PlanDnlbCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Mixin
    PlanFormatOption format;

    @Option(names = "--uplinks", required = true, paramLabel = "U",
            description = "Uplinks per leaf (nlink_up), 1..16384.")
    int uplinks;

    @Option(names = "--nics-per-leaf", required = true, paramLabel = "N",
            description = "NICs of the job connected to each leaf (nNIC_leaf), >= 1.")
    int nicsPerLeaf;

    @Option(names = "--qps", required = true, paramLabel = "Q",
            description = "QPs per connection (nqp_per_conn, NCCL_IB_QPS_PER_CONNECTION), >= 1.")
    int qps;

    @Option(names = "--dscp", paramLabel = "D", description = "DSCP value the ACLs match, 0..63 (default: any).")
    Integer dscp;

    @Option(names = "--leaves", defaultValue = "1", paramLabel = "L",
            description = "Leaves to configure (default: ${DEFAULT-VALUE}); NIC n is on leaf n / N.")
    int leaves;

    @Option(names = "--nic-ips", split = ",", paramLabel = "IP[/len]",
            description = "NIC addresses, leaf by leaf (L x N of them); Eq. 3's index is the host part"
                    + " (prefix /24 unless given). Default: NIC n has index n.")
    List<String> nicIps = new ArrayList<>();

    @Option(names = "--next-hops", split = ",", paramLabel = "IP",
            description = "PBR next hop per uplink: U addresses (every leaf) or L x U (leaf by leaf)."
                    + " Default: placeholders.")
    List<String> nextHops = new ArrayList<>();

    @Override
    public void run() {
        PlanFormat f = format.format();
        DnlbPlan plan = DnlbPlan.compute(new DnlbInput(uplinks, nicsPerLeaf, qps, leaves, dscp, nicIps, nextHops));
        PlanCommand.print(spec, plan, f);
    }
}
