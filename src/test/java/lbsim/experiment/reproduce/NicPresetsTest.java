package lbsim.experiment.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import lbsim.experiment.NicSpec;
import lbsim.experiment.Scenario;
import lbsim.experiment.SweepSpec;
import lbsim.net.NicConfig.Reorder;
import lbsim.net.NicConfig.Timer;
import org.junit.jupiter.api.Test;

/**
 * Every preset runs on the NIC its paper's set-up has (docs/experiments.md "NIC profile per preset"):
 * checked on every grid point of both scales as the runs resolve it, and named in the preset's text.
 */
class NicPresetsTest {

    /** Each grid point of the preset at this scale once (its first seed). */
    private static void forEachPoint(Preset p, String scale, java.util.function.BiConsumer<List<String>, Scenario> check) {
        SweepSpec spec = Reproduce.spec(p, scale, List.of());
        assertThat(spec.validate()).as("%s %s: keys the grid points do not read", p.id(), scale).isEmpty();
        Set<List<String>> seen = new HashSet<>();
        for (SweepSpec.Run r : spec.runs()) {
            if (seen.add(r.labels())) check.accept(r.labels(), spec.scenario(r));
        }
    }

    private static String label(SweepSpec spec, List<String> labels, String column) {
        return labels.get(spec.columns().indexOf(column));
    }

    @Test
    void everyGridPointRunsOnItsPapersNic() {
        for (Preset p : Presets.all()) {
            for (String scale : Preset.SCALES) {
                SweepSpec spec = Reproduce.spec(p, scale, List.of());
                String what = p.id() + " " + scale;
                forEachPoint(p, scale, (labels, sc) -> {
                    NicSpec nic = sc.nic();
                    String id = p.id();
                    String at = what + " " + labels;
                    if (id.startsWith("ethereal-")) {
                        // §4.1: per-packet timers and reorder buffers for spraying and REPS, per-queue 1 ms timers otherwise
                        String scheme = label(spec, labels, "set");
                        boolean multipath = scheme.equals("spray") || scheme.equals("reps");
                        assertThat(nic.profile()).as(at).isEqualTo(multipath ? "multipath" : "roce");
                        assertThat(nic.timer()).as(at).isEqualTo(multipath ? Timer.PER_PACKET : Timer.PER_QP);
                        assertThat(nic.reorder()).as(at).isEqualTo(multipath ? Reorder.UNBOUNDED : Reorder.IN_ORDER);
                        assertThat(sc.transport().lossRecovery()).as(at).isEqualTo(multipath ? "sack" : "go-back-n");
                        assertThat(nic.retryCount()).as(at).isZero();
                        assertThat(sc.transport().timeoutUs()).as(at).isEqualTo(1000);
                    } else if (id.startsWith("mcclure-")) {
                        // RoCE is in order (§4); the host transports keep out-of-order packets; htsim: no retry limit, one RTO
                        boolean roce = sc.transport().lossRecovery().equals("go-back-n");
                        assertThat(nic.profile()).as(at).isEqualTo(roce ? "roce" : "multipath");
                        assertThat(nic.reorder()).as(at).isEqualTo(roce ? Reorder.IN_ORDER : Reorder.UNBOUNDED);
                        assertThat(nic.timer()).as(at).isEqualTo(Timer.PER_QP);
                        assertThat(nic.retryCount()).as(at).isZero();
                        assertThat(sc.transport().timeoutUs()).as(at).isEqualTo(1000);
                    } else if (id.startsWith("paralet-")) {
                        assertThat(nic.profile()).as(at).isEqualTo("roce");
                        assertThat(nic.reorder()).as(at).isEqualTo(Reorder.IN_ORDER);
                        assertThat(nic.retryCount()).as(at).isZero();
                    } else if (id.startsWith("ctccl-")) {
                        // the testbed's NCCL 2.19: QP timer NCCL_IB_TIMEOUT 18 = 1.07 s and retry count 7, longer than
                        // every switch detection time Fig. 7 runs
                        assertThat(nic.profile()).as(at).isEqualTo("roce");
                        assertThat(nic.retryCount()).as(at).isEqualTo(7);
                        assertThat(sc.transport().timeoutUs()).as(at).isEqualTo(1073742);
                        assertThat(sc.failures()).as(at).allSatisfy(f -> assertThat(f.detectMs() * 1000).isLessThan(1073742));
                    } else if (id.equals("hopper-fig6")) {
                        // the testbed's RNICs as deployed: NCCL's / rdma-core's retry count 7
                        assertThat(nic.profile()).as(at).isEqualTo("roce");
                        assertThat(nic.retryCount()).as(at).isEqualTo(7);
                        assertThat(sc.transport().timeoutUs()).as(at).isEqualTo(67109);
                    } else if (id.startsWith("hopper-")) {
                        // §4.1.1: ConWeave's ns-3 with IRN, OOO threshold 30 packets; ns-3 has no retry limit
                        assertThat(nic.profile()).as(at).isEqualTo("irn");
                        assertThat(nic.reorder()).as(at).isEqualTo(Reorder.WINDOW);
                        assertThat(nic.reorderWindowPackets()).as(at).isEqualTo(30);
                        assertThat(nic.retryCount()).as(at).isZero();
                    } else {
                        throw new AssertionError(id + ": a preset this test does not know; add its paper's NIC");
                    }
                });
            }
        }
    }

    @Test
    void everyPresetNamesItsNicProfileInItsText() {
        for (Preset p : Presets.all()) {
            String text = (p.description() + " " + String.join(" ", p.deviations())).toLowerCase(java.util.Locale.ROOT);
            assertThat(text).as(p.id()).contains("nic profile").contains("retry");
        }
    }
}
