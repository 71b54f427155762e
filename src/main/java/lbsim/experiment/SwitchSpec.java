package lbsim.experiment;

import lbsim.topology.Fabric;

import lbsim.net.SwitchConfig;
import lbsim.transport.LossRecoveries;

/** The scenario's {@code switch} section: buffer admission, PFC and ECN marking details. */
public record SwitchSpec(double alpha, double pfcAlpha, long headroomBytes, long resumeOffsetBytes, long ecnKminBytes,
                         long ecnKmaxBytes, double ecnPmax, String ecnProfile, int arLevels) {

    /** {@code ecn_profile} values: the switch profiles, and {@code auto} (the congestion control's: dcqcn's for dcqcn, else dctcp's). */
    static final java.util.List<String> ECN_PROFILES = java.util.stream.Stream.concat(java.util.stream.Stream.of("auto"),
            java.util.stream.Stream.concat(SwitchConfig.ECN_PROFILES.stream(), java.util.stream.Stream.of("uec"))).toList();

    static SwitchSpec from(Section s) {
        SwitchSpec w = new SwitchSpec(
                s.doubleValue("alpha", 1.0, 1e-6, 1e6),
                s.doubleValue("pfc_alpha", 1.0, 1e-6, 1e6),
                s.longValue("pfc_headroom_bytes", -1, -1, 1L << 40),
                s.longValue("pfc_resume_offset_bytes", -1, -1, 1L << 40),
                s.longValue("ecn_kmin_bytes", -1, -1, 1L << 40),
                s.longValue("ecn_kmax_bytes", -1, -1, 1L << 40),
                s.doubleValue("ecn_pmax", -1, -1, 1),
                s.choice("ecn_profile", "auto", ECN_PROFILES),
                // 8: Broadcom/Juniper DLB quantise port quality into 8 bands (docs/scenario.md "switch")
                s.intValue("ar_levels", SwitchConfig.AR_LEVELS, 0, 1 << 16));
        if (w.ecnKminBytes >= 0 && w.ecnKmaxBytes >= 0 && w.ecnKmaxBytes < w.ecnKminBytes) {
            throw s.error("ecn_kmax_bytes", "must be >= ecn_kmin_bytes");
        }
        s.finish();
        return w;
    }

    /**
     * Refuses a buffer that cannot admit one full data packet (MTU payload plus the transport
     * header, the wire size QueuePair sends) into an empty switch under SharedBuffer's rules:
     * every such packet would be dropped or trimmed, and the run would retry it until max_time_ms.
     */
    void checkHoldsOnePacket(Section topology, TopologySpec topo, TransportSpec transport) {
        long packet = (long) topo.mtuBytes() + transport.headerBytes();
        String what = "one full data packet of " + packet + " bytes on the wire (topology.mtu_bytes " + topo.mtuBytes()
                + " + transport.header_bytes " + transport.headerBytes() + ")";
        long port = topo.portBufferBytes(), shared = topo.switchBufferBytes();
        if (port > 0) {
            // static: the egress limit without PFC, the XOFF level with it (below a packet, every packet would pause)
            if (port < packet) {
                throw topology.error("port_buffer_bytes", port + " cannot hold " + what + "; allowed: 0 (shared buffer) or at least "
                        + packet);
            }
        } else if (shared < packet) {
            throw topology.error("switch_buffer_bytes", shared + " cannot hold " + what + "; allowed: at least " + packet);
        } else if (!transport.pfc() && (long) (alpha * shared) < packet) {
            // drop-tail: a port may queue at most alpha x the free buffer
            long min = (long) Math.ceil(packet / alpha);
            while ((long) (alpha * min) < packet) min++;
            throw topology.error("switch_buffer_bytes", shared + " x switch.alpha " + alpha + " cannot hold " + what
                    + "; allowed: at least " + min + " with this alpha, or a larger switch.alpha");
        }
    }

    /** Without the built fabric: the DCTCP guideline's RTT is 0 (K = two packets) and uec's thresholds are not derived. */
    public SwitchConfig resolve(TopologySpec topo, TransportSpec transport) {
        return resolve(topo, transport, null);
    }

    /**
     * @param fabric the built topology, whose base RTT sizes the {@code dctcp} profile's K (DCTCP §3.4) and the
     *               {@code uec} profile's thresholds: uet-htsim's (main_uec.cpp), RED from 0.2 to 0.8 of the fabric's
     *               BDP in whole packets (its unloaded RTT over the longest path, as NSCC's network RTT, x host 0's NIC
     *               rate, rounded up to packets), marking probability 1 at the top, the same on every port, as in
     *               htsim. Keys given in the scenario override them one by one.
     */
    public SwitchConfig resolve(TopologySpec topo, TransportSpec transport, lbsim.topology.Topology fabric) {
        long kmin = ecnKminBytes, kmax = ecnKmaxBytes;
        double pmax = ecnPmax;
        String profile = profile(transport.cc());
        long packet = (long) topo.mtuBytes() + transport.headerBytes();
        long baseRttPs = fabric == null ? 0 : Fabric.baseRttPs(fabric, (int) packet, transport.ackBytes(), fabric.hostRateBps(0));
        if (profile.equals("uec")) {
            if (fabric != null) {
                long rate = fabric.hostRateBps(0);
                long rtt = Math.max(baseRttPs, Fabric.maxUnloadedRttPs(fabric, (int) packet, transport.ackBytes()));
                long bdpPackets = (Fabric.bdpBytes(rtt, rate) + packet - 1) / packet;
                if (kmin < 0) kmin = (long) Math.ceil(bdpPackets * 0.2) * packet;
                if (kmax < 0) kmax = (long) Math.ceil(bdpPackets * 0.8) * packet;
                if (pmax < 0) pmax = 1.0;
            }
            profile = "dctcp";   // only for keys left unset without a fabric
        }
        return new SwitchConfig(topo.switchBufferBytes(), topo.portBufferBytes(), alpha, transport.pfc(), pfcAlpha,
                headroomBytes, resumeOffsetBytes, kmin, kmax, pmax, profile, topo.mtuBytes(),
                LossRecoveries.trimMode(transport.lossRecovery()), transport.headerBytes(), baseRttPs, arLevels);
    }

    /** The ECN profile in force: the given one, or the congestion control's (dcqcn's for dcqcn, uec's for uec, else dctcp's). */
    String profile(String cc) {
        if (!ecnProfile.equals("auto")) return ecnProfile;
        return switch (cc) {
            case "dcqcn" -> "dcqcn";
            case "uec" -> "uec";
            default -> "dctcp";
        };
    }
}
