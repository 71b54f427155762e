package lbsim.experiment;

import lbsim.net.SwitchConfig;
import lbsim.transport.LossRecoveries;

/** The scenario's {@code switch} section: buffer admission, PFC, ECN marking and the adaptive-routing load bands. */
public record SwitchSpec(double alpha, double pfcAlpha, long headroomBytes, long resumeOffsetBytes, long ecnKminBytes,
                         long ecnKmaxBytes, double ecnPmax, int arLevels) {

    static SwitchSpec from(Section s) {
        SwitchSpec w = new SwitchSpec(
                s.doubleValue("alpha", 1.0, 1e-6, 1e6),
                s.doubleValue("pfc_alpha", 1.0, 1e-6, 1e6),
                s.longValue("pfc_headroom_bytes", -1, -1, 1L << 40),
                s.longValue("pfc_resume_offset_bytes", -1, -1, 1L << 40),
                s.longValue("ecn_kmin_bytes", -1, -1, 1L << 40),
                s.longValue("ecn_kmax_bytes", -1, -1, 1L << 40),
                s.doubleValue("ecn_pmax", -1, -1, 1),
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

    public SwitchConfig resolve(TopologySpec topo, TransportSpec transport) {
        return new SwitchConfig(topo.switchBufferBytes(), topo.portBufferBytes(), alpha, transport.pfc(), pfcAlpha,
                headroomBytes, resumeOffsetBytes, ecnKminBytes, ecnKmaxBytes, ecnPmax,
                transport.cc().equals("dcqcn") ? "dcqcn" : "dctcp", topo.mtuBytes(),
                LossRecoveries.trimMode(transport.lossRecovery()), transport.headerBytes(), arLevels);
    }
}
