package lbsim.experiment;

import lbsim.net.SwitchConfig;
import lbsim.transport.LossRecoveries;

/** The scenario's {@code switch} section: buffer admission, PFC and ECN marking details. */
public record SwitchSpec(double alpha, double pfcAlpha, long headroomBytes, long resumeOffsetBytes, long ecnKminBytes,
                         long ecnKmaxBytes, double ecnPmax) {

    static SwitchSpec from(Section s) {
        SwitchSpec w = new SwitchSpec(
                s.doubleValue("alpha", 1.0, 1e-6, 1e6),
                s.doubleValue("pfc_alpha", 1.0, 1e-6, 1e6),
                s.longValue("pfc_headroom_bytes", -1, -1, 1L << 40),
                s.longValue("pfc_resume_offset_bytes", -1, -1, 1L << 40),
                s.longValue("ecn_kmin_bytes", -1, -1, 1L << 40),
                s.longValue("ecn_kmax_bytes", -1, -1, 1L << 40),
                s.doubleValue("ecn_pmax", -1, -1, 1));
        if (w.ecnKminBytes >= 0 && w.ecnKmaxBytes >= 0 && w.ecnKmaxBytes < w.ecnKminBytes) {
            throw s.error("ecn_kmax_bytes", "must be >= ecn_kmin_bytes");
        }
        s.finish();
        return w;
    }

    public SwitchConfig resolve(TopologySpec topo, TransportSpec transport) {
        return new SwitchConfig(topo.switchBufferBytes(), topo.portBufferBytes(), alpha, transport.pfc(), pfcAlpha,
                headroomBytes, resumeOffsetBytes, ecnKminBytes, ecnKmaxBytes, ecnPmax,
                transport.cc().equals("dcqcn") ? "dcqcn" : "dctcp", topo.mtuBytes(),
                LossRecoveries.trimMode(transport.lossRecovery()), Math.max(1, transport.headerBytes()));
    }
}
