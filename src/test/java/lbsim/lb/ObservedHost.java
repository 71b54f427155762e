package lbsim.lb;

import java.util.ArrayList;
import java.util.List;
import lbsim.experiment.Runner;
import lbsim.experiment.Scenario;
import lbsim.experiment.Scenarios;
import lbsim.metrics.RunResult;
import lbsim.net.Packet;
import lbsim.transport.PathPolicy;
import lbsim.transport.QueuePair;
import lbsim.transport.Transport;

/** Test helper: runs a scenario with the scheme's host half wrapped, recording every QP as it opens. */
final class ObservedHost {
    /**
     * A QP just after the scheme chose its first port: that port, what {@code snapshot} made of the scheme's state
     * then, and the port each earlier QP (by id) was on at that moment.
     */
    record Opened(QueuePair qp, int startPort, Object state, int[] earlierPorts) {}

    /** The QPs of a run in the order they opened. */
    record Run(RunResult result, List<Opened> opened) {
        Opened ofFlow(int flowId) {
            return opened.stream().filter(o -> o.qp().flow().spec().id() == flowId).findFirst().orElseThrow();
        }
    }

    private ObservedHost() {}

    static Run run(String yaml, String... overrides) {
        return run(yaml, st -> st, overrides);
    }

    static Run run(String yaml, java.util.function.UnaryOperator<Object> snapshot, String... overrides) {
        Scenario sc = Scenarios.parse(yaml, overrides);
        List<Opened> opened = new ArrayList<>();
        List<QueuePair> qps = new ArrayList<>();
        Scenario wrapped = sc.withSchemeFactory(ctx -> {
            Scheme s = sc.schemeFactory().apply(ctx);
            return new Scheme(s.name(), wrap(s.host(), qps, opened, snapshot), s.switches());
        });
        return new Run(Runner.run(wrapped, Runner.Progress.NONE), opened);
    }

    private static PathPolicy wrap(PathPolicy inner, List<QueuePair> qps, List<Opened> opened,
                                   java.util.function.UnaryOperator<Object> snapshot) {
        return new PathPolicy() {
            @Override
            public void openFlow(Transport transport, lbsim.transport.Flow flow) {
                inner.openFlow(transport, flow);
            }

            @Override
            public void initQp(QueuePair qp) {
                int[] earlier = new int[qps.size()];
                for (int i = 0; i < earlier.length; i++) earlier[i] = qps.get(i).sport();
                inner.initQp(qp);
                qps.add(qp);
                opened.add(new Opened(qp, qp.sport(), snapshot.apply(qp.schemeState()), earlier));
            }

            @Override
            public void beforeSend(QueuePair qp, Packet p) {
                inner.beforeSend(qp, p);
            }

            @Override
            public void onAck(QueuePair qp, Packet ack, long rttPs) {
                inner.onAck(qp, ack, rttPs);
            }

            @Override
            public void onTimeout(QueuePair qp) {
                inner.onTimeout(qp);
            }

            @Override
            public void onProbeAck(QueuePair qp, Packet ack, long rttPs) {
                inner.onProbeAck(qp, ack, rttPs);
            }

            @Override
            public void addCounters(java.util.Map<String, Long> out) {
                inner.addCounters(out);
            }

            @Override
            public List<String> warnings() {
                return inner.warnings();
            }

            @Override
            public boolean spraysPackets() {
                return inner.spraysPackets();
            }

            @Override
            public lbsim.topology.PathControl pathControl() {
                return inner.pathControl();
            }
        };
    }
}
