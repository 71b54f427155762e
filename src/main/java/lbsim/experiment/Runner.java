package lbsim.experiment;

import lbsim.topology.Fabric;

import lbsim.BadInputException;

import java.util.ArrayList;
import java.util.List;
import lbsim.engine.EventHandler;
import lbsim.engine.Simulation;
import lbsim.lb.Scheme;
import lbsim.lb.SchemeContext;
import lbsim.metrics.CollectiveResult;
import lbsim.metrics.FlowRecord;
import lbsim.metrics.LinkClassRecord;
import lbsim.metrics.LinkClasses;
import lbsim.metrics.IdleFct;
import lbsim.metrics.LinkRecord;
import lbsim.metrics.LinkSeries;
import lbsim.metrics.RunResult;
import lbsim.metrics.Slowdown;
import lbsim.metrics.Stats;
import lbsim.metrics.ThroughputSampler;
import lbsim.metrics.ThroughputSeries;
import lbsim.net.FlakyLoss;
import lbsim.net.Network;
import lbsim.net.Port;
import lbsim.net.PortStats;
import lbsim.net.SwitchConfig;
import lbsim.topology.Topology;
import lbsim.transport.Flow;
import lbsim.transport.IdleSplit;
import lbsim.transport.QueuePair;
import lbsim.transport.Transport;
import lbsim.transport.TransportConfig;
import lbsim.workload.FlowGraph;
import lbsim.transport.FlowSpec;
import lbsim.workload.WorkloadDriver;
import lbsim.workload.collective.BusBandwidth;
import lbsim.workload.collective.CollectiveSpec;

/**
 * Runs one scenario: builds fabric, network, transport and workload, injects failures, runs
 * the engine until every flow is delivered and acknowledged and the network has drained,
 * checks conservation, and collects the results.
 */
public final class Runner {
    /** Simulated time between completion checks and progress reports. */

    /** Progress reports: simulated time so far, the limit, events so far. */
    public interface Progress {
        void update(long simPs, long limitPs, long events, int flowsLeft);

        Progress NONE = (a, b, c, d) -> { };
    }

    private Runner() {}

    /** Congestion controls that react to ECN marks (a threshold no queue reaches leaves them blind). */
    private static final java.util.Set<String> ECN_CCS = java.util.Set.of("dctcp", "dcqcn", "uec");

    /**
     * The window link utilisation is measured over: the run's end, or later if links still sent
     * after it (erasure coding's surplus coded packets drain after the flow completed; their bytes
     * count, so the time they took must too, or a link would seem busier than its rate allows).
     */
    private static long trafficEndPs(Network net, long finishPs) {
        return Math.max(finishPs, net.lastTransmissionEndPs());
    }

    /** A warning naming the undelivered flows whose hosts no path of links that are up joins, or null. */
    private static String unreachableFlows(Network net, FlowGraph graph, WorkloadDriver driver) {
        int[] component = net.componentsOfUpLinks();
        Flow[] started = driver.flows();
        int count = 0;
        FlowSpec first = null;
        for (FlowSpec f : graph.flows()) {
            Flow live = started[f.id()];
            if ((live == null || !live.isDelivered()) && component[f.src()] != component[f.dst()]) {
                if (count++ == 0) first = f;
            }
        }
        if (count == 0) return null;
        return count + " undelivered flows have no path left between their hosts (every route crosses a link that is down),"
                + " e.g. flow " + first.id() + " (host " + first.src() + " -> host " + first.dst() + "): no scheme can deliver them";
    }

    /** A warning naming the flows whose own start time is at or after the time limit (they never start), or null. */
    private static String lateFlows(FlowGraph graph, long limitPs) {
        int count = 0;
        FlowSpec first = null;
        for (FlowSpec f : graph.flows()) {
            if (f.startPs() >= limitPs && count++ == 0) first = f;
        }
        if (count == 0) return null;
        return count + " flows start at or after max_time_ms, e.g. flow " + first.id() + " at "
                + first.startPs() / (double) Simulation.PS_PER_MS + " ms: they never started; raise max_time_ms";
    }

    public static RunResult run(Scenario sc, Progress progress) {
        long wallStart = System.nanoTime();
        Topology topo = sc.topology().build(sc.file());
        Simulation sim = new Simulation(sc.seed());
        FlowGraph graph = sc.workload().build(topo, sim.random().stream("workload"));
        if (graph.maxHost() >= topo.hostCount()) {
            throw new BadInputException(sc.file() + ": workload uses host " + graph.maxHost() + " but the fabric has "
                    + topo.hostCount() + " hosts");
        }
        TransportConfig[] tcfg = transportConfigs(sc, topo, graph);
        String timerWarning = timerCheck(sc, topo, tcfg);
        SwitchConfig scfg = sc.switchSpec().resolve(sc.topology(), sc.transport(), topo);
        Scheme scheme = sc.schemeFactory().apply(new SchemeContext(sim, topo));
        Network net = new Network(sim, topo, scfg, scheme.switches());
        for (int h = 0; h < tcfg.length; h++) net.host(h).configureNic(tcfg[h].nic());   // arbitration and QP context cache
        WorkloadDriver.Relay relay = new WorkloadDriver.Relay();
        Transport transport = new Transport(sim, net, tcfg, scheme.host(), relay);
        QpHeap.atStart(graph, topo, scheme.host()).check(sc.file(), sc.scheme(), Runtime.getRuntime().maxMemory());
        WorkloadDriver driver = relay.attach(new WorkloadDriver(sim, transport, graph));
        List<String> warnings = new ArrayList<>(sc.warnings());
        warnings.addAll(sc.workload().warnings());
        if (timerWarning != null) warnings.add(timerWarning);
        addFirstSwitchWarning(net, lbsim.net.Switch::bufferWarning, warnings);
        if (ECN_CCS.contains(sc.transport().cc())) addFirstSwitchWarning(net, lbsim.net.Switch::ecnWarning, warnings);
        // the run ends when every flow is delivered and acknowledged: failures due after that (run
        // by the end-of-slice steps or the drain below) are not applied
        java.util.function.BooleanSupplier ended = () -> driver.allDelivered() && transport.openQpCount() == 0;
        injectFailures(sc, topo, net, sim, ended);
        LinkClasses linkClasses = new LinkClasses(net);
        sc.failures().stream().mapToLong(FailureSpec::atUs).min()
                .ifPresent(at -> sim.scheduleAt(at * Simulation.PS_PER_US, (k, a, o) -> {
                    if (!ended.getAsBoolean()) linkClasses.snapshot(sim.now());
                }, 0, 0, null));
        driver.start();

        long limit = (long) (sc.maxTimeMs() * Simulation.PS_PER_MS);
        ThroughputSampler throughput = new ThroughputSampler(net, Math.round(sc.metrics().throughputIntervalUs() * Simulation.PS_PER_US),
                sc.metrics().throughputMaxIntervals());
        LinkSeries series = linkSeries(sc, topo, net);
        long t = 0;
        boolean done = false;
        long finishPs = 0;
        Deliverable deliverable = new Deliverable(net, graph, driver, transport);
        String cutOff = null;
        while (t < limit) {
            t = Math.min(limit, t + throughput.intervalPs());   // one sampling interval (it doubles on long runs)
            boolean empty = runTo(sim, t, series, transport);
            throughput.sampleUpTo(t);
            progress.update(sim.now(), limit, sim.eventsProcessed(), driver.undeliveredCount());
            if (transport.firstFailedQp() != null) break;
            if (driver.allDelivered() && transport.openQpCount() == 0) {
                done = true;
                finishPs = Math.max(transport.lastQpFinishedPs(), driver.lastDeliveryPs());
                break;
            }
            if (empty) break;
            if (!deliverable.anyLeft()) {
                // every flow still undelivered has no path left and nothing else can finish: waiting for max_time_ms changes nothing
                cutOff = unreachableFlows(net, graph, driver);
                break;
            }
        }
        if (done) {
            // drain what is still in flight (duplicate ACKs, lazily cancelled timers)
            sim.run(Long.MAX_VALUE);
        } else if (cutOff != null) {
            warnings.add("stopped at " + sim.now() / (double) Simulation.PS_PER_MS + " ms, before max_time_ms=" + sc.maxTimeMs() + ": "
                    + cutOff + ", and nothing else is in flight that could still finish");
            finishPs = sim.now();
        } else if (transport.firstFailedQp() != null) {
            warnings.add(qpFailure(sc, topo, transport.firstFailedQp(), sim.now()));
            finishPs = sim.now();
        } else {
            warnings.add("stopped at max_time_ms=" + sc.maxTimeMs() + " with " + driver.undeliveredCount()
                    + " flows undelivered and " + transport.openQpCount() + " QPs open");
            String timer = longTimer(sc, transport, limit);
            if (timer != null) warnings.add(timer);
            if (driver.allDelivered()) {
                // "N of N flows finished" and no data dropped, yet incomplete: say what is missing
                warnings.add("every flow was delivered, but " + transport.openQpCount() + " QPs never got the acknowledgement"
                        + " of their last packets: their ACKs were lost (control packets: counted in links.csv drops,"
                        + " not in packets.dropped), e.g. on a link that is down");
            }
            String cut = unreachableFlows(net, graph, driver);
            if (cut != null) warnings.add(cut);
            String late = lateFlows(graph, limit);
            if (late != null) warnings.add(late);
            finishPs = sim.now();
        }
        warnings.addAll(scheme.host().warnings());
        net.finish();
        if (done) Conservation.check(net, transport, graph, driver);
        long wallMs = (System.nanoTime() - wallStart) / 1_000_000;
        long trafficEndPs = trafficEndPs(net, finishPs);
        if (series != null) series.finish(trafficEndPs);
        return collect(sc, topo, net, transport, graph, driver, done, finishPs, trafficEndPs, warnings, wallMs,
                throughput.series(), linkClasses.summarise(trafficEndPs), linkClasses.uplinks(trafficEndPs), series,
                idealisations(sc, scheme));
    }

    /**
     * Runs the simulation to {@code untilPs}, stopping at each of the link series' sample times on
     * the way (the run's results do not depend on where it stops); returns whether the event queue
     * is empty. A QP that fails stops the simulation where it is.
     */
    private static boolean runTo(Simulation sim, long untilPs, LinkSeries series, Transport transport) {
        if (series != null) {
            while (series.nextSamplePs() < untilPs) {
                long at = series.nextSamplePs();
                sim.run(at);
                if (transport.firstFailedQp() != null) return false;
                series.sampleUpTo(at);
            }
        }
        boolean empty = sim.run(untilPs);
        if (series != null && transport.firstFailedQp() == null) series.sampleUpTo(untilPs);
        return empty;
    }

    /** metrics.series: the chosen links' series, or null when off; exit 2 naming the key when the glob matches no link. */
    private static LinkSeries linkSeries(Scenario sc, Topology topo, Network net) {
        MetricsSpec.Series spec = sc.metrics().series();
        if (spec == null) return null;
        int[] links = topo.linksMatching(spec.links());
        if (links.length == 0) {
            throw new BadInputException(sc.file() + ": metrics.series.links: '" + spec.links() + "' matches no link (names look like '"
                    + topo.linkName(topo.linkCount() - 1) + "'; globs as in failures, e.g. 'leaf*-spine*')");
        }
        if (spec.maxRows() < 3L * 2 * links.length) {
            throw new BadInputException(sc.file() + ": metrics.series.max_rows: " + spec.maxRows() + " is below 3 rows per link direction"
                    + " sampled ('" + spec.links() + "' matches " + 2 * links.length + " directions): raise it to at least "
                    + 3L * 2 * links.length + " or match fewer links");
        }
        long intervalPs = Math.max(1, Math.round(spec.intervalUs() * Simulation.PS_PER_US));
        return LinkSeries.of(net, links, intervalPs, spec.maxRows());
    }

    /** Why the run stopped early: a QP ran out of retries, as a RoCE NIC reports it. */
    private static String qpFailure(Scenario sc, Topology topo, QueuePair qp, long nowPs) {
        return "stopped at " + nowPs / (double) Simulation.PS_PER_MS + " ms: QP " + qp.id + " (flow " + qp.flow().spec().id()
                + ", " + topo.nodeName(qp.src()) + " -> " + topo.nodeName(qp.dst()) + ") timed out "
                + (sc.nic().retryCount() + 1) + " times in a row without progress, more than nic.retry_count "
                + sc.nic().retryCount() + ": the NIC puts the QP in the error state (IBV_WC_RETRY_EXC_ERR) and NCCL aborts"
                + " the job, so the run ends here. Raise nic.retry_count (0 = never fail) to see the run continue";
    }

    /** A run stopped at its time limit while QPs wait on a retransmission timer beyond it: name the timer. */
    private static String longTimer(Scenario sc, Transport transport, long limitPs) {
        for (QueuePair qp : transport.queuePairs()) {
            if (!qp.isFinished() && qp.pendingTimeoutPs() > limitPs) {
                return "QP " + qp.id + " waits on a retransmission timeout of " + qp.currentRtoPs() / (double) Simulation.PS_PER_MS
                        + " ms (" + (sc.transport().timeoutUs() == sc.nic().localAckTimeoutUs() && sc.nic().localAckTimeout() > 0
                        ? "the RoCE local ACK timeout 4.096 us x 2^" + sc.nic().localAckTimeout() + ", nic.local_ack_timeout"
                        : "transport.timeout_us") + "): raise max_time_ms past it, or shorten the timer";
            }
        }
        return null;
    }

    /** The first switch's configuration warning of one kind: all switches share the configuration, so one names the problem. */
    private static void addFirstSwitchWarning(Network net, java.util.function.Function<lbsim.net.Switch, String> check, List<String> warnings) {
        for (var s : net.switches()) {
            String w = check.apply(s);
            if (w != null) {
                warnings.add(w + " (and possibly other switches)");
                return;
            }
        }
    }

    /**
     * Each host's transport settings. The defaults that scale with a NIC (one BDP as the initial
     * window and IRN's in-flight cap, Swift's base RTT, the fixed-rate fair share) come from the
     * host's own NIC rate, so a slow NIC (a host link override) throttles only its own flows; hosts
     * whose NICs run at one rate share one config.
     */
    private static TransportConfig[] transportConfigs(Scenario sc, Topology topo, FlowGraph graph) {
        int mtu = sc.topology().mtuBytes();
        int flowsPerHost = Math.max(1, maxFlowsPerHost(graph, topo.hostCount()));
        long unloadedRttPs = Fabric.maxUnloadedRttPs(topo, mtu + sc.transport().headerBytes(), sc.transport().ackBytes());
        java.util.Map<Long, TransportConfig> byRate = new java.util.HashMap<>();
        TransportConfig[] out = new TransportConfig[topo.hostCount()];
        for (int h = 0; h < out.length; h++) {
            out[h] = byRate.computeIfAbsent(topo.hostRateBps(h), rate -> {
                long rttPs = Fabric.baseRttPs(topo, mtu + sc.transport().headerBytes(), sc.transport().ackBytes(), rate);
                return sc.transport().resolve(mtu, Fabric.bdpBytes(rttPs, rate), rate / flowsPerHost, rttPs, unloadedRttPs,
                        Fabric.maxHops(topo) - 1);
            });
        }
        return out;
    }

    /**
     * A retransmission timer shorter than one packet's serialisation at its NIC fires before any packet can be
     * acknowledged, so no flow would ever finish: exit 2. One shorter than the fabric's base RTT makes every packet
     * time out before its ACK returns, even on an idle fabric: a warning (null when neither holds).
     */
    static String timerCheck(Scenario sc, Topology topo, TransportConfig[] tcfg) {
        String key = "transport." + (sc.transport().lossRecovery().equals("irn") ? "irn_rto_high_us" : "timeout_us");
        String warning = null;
        for (int h = 0; h < tcfg.length; h++) {
            TransportConfig c = tcfg[h];
            if (h > 0 && c == tcfg[h - 1]) continue; // hosts of one rate share a config
            long ser = Simulation.serialisationPs(c.mtuBytes() + (long) c.headerBytes(), topo.hostRateBps(h));
            if (c.timeoutPs() < ser) {
                throw new BadInputException(sc.file() + ": " + key + ": " + c.timeoutPs() / 1e6 + " us is shorter than one packet's "
                        + "serialisation at host " + topo.nodeName(h) + "'s NIC (" + ser / 1e6 + " us): every timer fires before a "
                        + "packet can be acknowledged, so no flow could finish; use at least the fabric's base RTT, "
                        + c.baseRttPs() / 1e6 + " us");
            }
            if (warning == null && c.timeoutPs() < c.baseRttPs()) {
                warning = key + " " + c.timeoutPs() / 1e6 + " us is below the fabric's base RTT (" + c.baseRttPs() / 1e6
                        + " us): packets time out before their ACK can return even on an idle fabric, and are resent spuriously";
            }
        }
        return warning;
    }

    private static int maxFlowsPerHost(FlowGraph g, int hosts) {
        int[] c = new int[hosts];
        int m = 0;
        for (FlowSpec f : g.flows()) if (f.independent()) m = Math.max(m, ++c[f.src()]);
        return m;
    }

    private static void injectFailures(Scenario sc, Topology topo, Network net, Simulation sim,
                                       java.util.function.BooleanSupplier ended) {
        for (int i = 0; i < sc.failures().size(); i++) {
            FailureSpec f = sc.failures().get(i);
            int[] links = f.links(topo, sc.file(), i);
            long at = f.atUs() * Simulation.PS_PER_US;
            EventHandler h = (kind, arg, obj) -> {
                if (ended.getAsBoolean()) return;
                for (int l : links) {
                    switch (f.kind()) {
                        case "down" -> net.failLink(l, (long) (f.detectMs() * Simulation.PS_PER_MS));
                        case "degrade" -> net.degradeLink(l, f.capacityFraction());
                        default -> net.setLinkLoss(l,
                                new FlakyLoss(sim.now(), f.meanGapUs() * Simulation.PS_PER_US, f.meanBurstUs() * Simulation.PS_PER_US,
                                        sim.random().stream("flaky." + topo.linkName(l) + ".ab")),
                                new FlakyLoss(sim.now(), f.meanGapUs() * Simulation.PS_PER_US, f.meanBurstUs() * Simulation.PS_PER_US,
                                        sim.random().stream("flaky." + topo.linkName(l) + ".ba")));
                    }
                }
            };
            sim.scheduleAt(at, h, 0, 0, null);
        }
    }

    private static RunResult collect(Scenario sc, Topology topo, Network net, Transport transport, FlowGraph graph,
                                     WorkloadDriver driver, boolean done, long finishPs, long trafficEndPs, List<String> warnings,
                                     long wallMs, ThroughputSeries throughput,
                                     List<LinkClassRecord> linkClasses, lbsim.metrics.UplinkLoad uplinks, LinkSeries series,
                                     List<String> idealisations) {
        List<FlowRecord> flows = new ArrayList<>();
        List<Long> fcts = new ArrayList<>();
        Flow[] fl = driver.flows();
        boolean slowdowns = sc.workload().isOpenLoop();   // summary.json reports slowdowns for open-loop runs only
        long[] sdSize = new long[graph.size()];
        double[] sd = new double[graph.size()];
        IdleFct.Memo idleFct = new IdleFct.Memo(topo, sc.topology().mtuBytes(), sc.transport().headerBytes());
        // switches that may put one flow on several paths at once (spraying, flowlets, ConWeave's
        // rerouting) need the multi-path idle FCT, or a flow can beat its reference (slowdown < 1)
        boolean switchesSplit = false;
        for (lbsim.net.Switch sw : net.switches()) switchesSplit |= sw.strategy() != null && sw.strategy().splitsFlows();
        for (FlowSpec s : graph.flows()) {
            Flow f = fl[s.id()];
            double start = f == null ? -1 : f.startPs() / 1000.0;
            double fin = f != null && f.isDelivered() ? f.deliveredPs() / 1000.0 : -1;
            double fct = fin >= 0 ? fin - start : -1;
            if (fin >= 0) fcts.add(f.deliveredPs() - f.startPs());
            double slow = Double.NaN;
            if (fin >= 0) {
                // alone on the idle fabric as this scheme sends it: its QPs, their packets, pacing (IdleSplit)
                IdleSplit split = transport.policy().idleSplit(transport, s);
                double idle = idleFct.ps(s.src(), s.dst(), switchesSplit ? split.withSpraying() : split);
                slow = (f.deliveredPs() - f.startPs()) / idle;
            }
            sdSize[s.id()] = s.sizeBytes();
            sd[s.id()] = slow;
            long pk = 0, lost = 0;
            if (f != null) {
                for (QueuePair q : f.qps()) {
                    pk += q.packets();
                    lost += net.lostPackets(q.id);
                }
            }
            double ackFct = f != null && f.acknowledgedPs() >= 0 ? (f.acknowledgedPs() - f.startPs()) / 1000.0 : -1;
            flows.add(new FlowRecord(s.id(), s.src(), s.dst(), s.sizeBytes(), s.group(), f == null ? 0 : f.qps().size(), start,
                    fin, fct, f == null ? 0 : f.retransmittedPackets(), f == null ? 0 : f.timeouts(),
                    f == null ? 0 : f.pathChanges(), s.label(), slow, pk, lost, ackFct));
        }
        long[] fctPs = fcts.stream().mapToLong(Long::longValue).toArray();
        long[] fctNs = new long[fctPs.length];
        for (int i = 0; i < fctNs.length; i++) fctNs[i] = Math.round(fctPs[i] / 1000.0);

        List<LinkRecord> links = new ArrayList<>();
        long ecn = 0, pauses = 0, hops = 0;
        double seconds = Math.max(1, trafficEndPs) / (double) Simulation.PS_PER_S;
        for (Port p : net.ports()) {
            PortStats st = p.stats();
            ecn += st.ecnMarks();
            pauses += st.pauseFramesReceived();
            hops += st.txPackets();
            double util = st.txBytes() * 8.0 / (p.nominalRateBps() * seconds);
            int link = topo.portLink(p.id);
            Network.LinkState state = net.linkState(link);
            links.add(new LinkRecord(topo.linkName(link), topo.portName(p.id), topo.nodeName(p.owner.id), p.peer().name(),
                    p.nominalRateBps() / 1e9, st.txBytes(), util, st.maxQueueBytes(), st.bufferDrops() + st.wireDrops(),
                    st.ecnMarks(), st.pauseFramesReceived(), st.pausedPs() / 1e6, state.label(),
                    state == Network.LinkState.UP ? Double.NaN : net.linkStateSincePs(link) / 1000.0));
        }
        long retrans = 0, ooo = 0, timeouts = 0, cnps = 0;
        for (QueuePair qp : transport.queuePairs()) {
            cnps += qp.cnpsSent();
            retrans += qp.retransmittedPackets();
            ooo += qp.outOfOrderArrivals();
            timeouts += qp.timeouts();
        }
        Long cct = null;
        if (sc.workload().isCollective()) {
            long worst = -1;
            for (long c : driver.groupCompletionPs()) worst = Math.max(worst, c);
            cct = done && worst >= 0 ? Math.round(worst / 1000.0) : null;
        }
        long ideal = IdealBound.idealNs(sc, topo, graph);
        java.util.Map<String, Long> lb = new java.util.TreeMap<>();
        for (var s : net.switches()) s.strategy().reportCounters(lb);
        addHostCounters(transport, lb);
        return new RunResult(sc.name(), sc.scheme(), sc.seed(), done, cct, ideal, Stats.of(fctNs), net.dataInjected(),
                net.dataDelivered(), net.dataDropped(), retrans, net.trimmedPackets(), ecn, pauses, transport.maxQpsPerNic(), ooo, timeouts,
                net.sim().eventsProcessed(), hops, finishPs / 1000.0, wallMs, flows, links, warnings, lb, throughput,
                linkClasses, slowdowns ? Slowdown.of(sdSize, sd) : null, collectiveResults(sc, topo, graph, driver, done),
                maxQpsByNic(transport, topo.hostCount()), uplinks.links() > 0 ? uplinks : null,
                commTimeNs(sc, driver, done), nicSummary(sc, transport), idealisations, net.sim().log(), series, sc.resolvedSha256(),
                sc.metrics().steps() ? lbsim.metrics.StepTimeline.of(graph, flows) : null, cnps);
    }

    /** Everything the run idealises against deployed hardware: the NIC's, then the scheme's (summary.json {@code idealisations}). */
    private static java.util.List<String> idealisations(Scenario sc, Scheme scheme) {
        java.util.List<String> all = new java.util.ArrayList<>(sc.nic().idealisations());
        all.addAll(scheme.idealisations());
        return all;
    }

    /** summary.json {@code nic}: the profile in force, its fields and what the NIC did. */
    private static java.util.Map<String, Object> nicSummary(Scenario sc, Transport transport) {
        java.util.Map<String, Object> m = sc.nic().summary(transport.configOf(0).nic(), sc.transport().timeoutUs());
        QueuePair failed = transport.firstFailedQp();
        m.put("failed_qp", failed == null ? null : failed.id);
        m.put("context_misses_tx", transport.network().txContextMisses());
        m.put("context_misses_rx", transport.network().rxContextMisses());
        m.put("rx_pause_frames", transport.network().rxPauseFrames());
        m.put("rx_buffer_drops", transport.network().rxBufferDrops());
        m.put("rx_max_held_bytes", transport.network().rxMaxHeldBytes());
        return m;
    }

    /** Collective and training runs: time with at least one collective in progress (WorkloadDriver.communicationPs). */
    private static Long commTimeNs(Scenario sc, WorkloadDriver driver, boolean done) {
        if (!sc.workload().isCollective() || !done) return null;
        long ps = driver.communicationPs();
        return ps >= 0 ? Math.round(ps / 1000.0) : null;
    }

    private static int[] maxQpsByNic(Transport transport, int hosts) {
        int[] q = new int[hosts];
        for (int h = 0; h < hosts; h++) q[h] = transport.maxQpsOf(h);
        return q;
    }

    /** Per collective (kind collective, one per job): CCT, its bound and NCCL-tests algbw / busbw. */
    private static List<CollectiveResult> collectiveResults(Scenario sc, Topology topo, FlowGraph graph, WorkloadDriver driver, boolean done) {
        List<CollectiveSpec> specs = sc.workload().collectives();
        List<Integer> groups = sc.workload().collectiveGroups();
        if (groups.size() != specs.size()) return List.of();
        long[] cctPs = driver.groupCompletionPs();
        List<List<FlowSpec>> byGroup = IdealBound.byGroup(graph);
        List<CollectiveResult> out = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            CollectiveSpec c = specs.get(i);
            int g = groups.get(i);
            long ps = done && g < cctPs.length ? cctPs[g] : -1;
            Long cct = ps > 0 ? Math.round(ps / 1000.0) : null;
            Double alg = ps > 0 ? BusBandwidth.algBwGBps(c.sizeBytes(), ps) * 8 : null;
            Double bus = ps > 0 ? BusBandwidth.busBwGBps(c.op(), c.ranks(), c.sizeBytes(), ps) * 8 : null;
            out.add(new CollectiveResult(g, c.label().isEmpty() ? c.op() + " " + c.algorithm() : c.label(), c.op(), c.algorithm(),
                    c.sizeBytes(), c.ranks(), cct, Math.round(IdealBound.collectivePs(topo, c, byGroup.get(g)) / 1000.0),
                    alg, bus));
        }
        return out;
    }

    /** The host scheme's own counters (summary.json {@code lb}), empty for most schemes. */
    private static void addHostCounters(Transport transport, java.util.Map<String, Long> m) {
        transport.policy().addCounters(m);
    }
}
