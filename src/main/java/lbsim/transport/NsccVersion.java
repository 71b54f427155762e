package lbsim.transport;

import java.util.List;

/**
 * Which uet-htsim NSCC the {@code uec} congestion control follows ({@code transport.uec_nscc}): its
 * rules and its defaults, each as one version of uet-htsim's {@code htsim/sim/uec.cpp} had them.
 * A reference output of uet-htsim is only comparable with the NSCC of the commit that produced it.
 */
public enum NsccVersion {
    /** The newest NSCC we could read: HLC-Lab/uet-htsim b18eef44 (docs/uec.md "What lbsim's uec does"). */
    CURRENT("current", Nscc.QA_GATE),
    /**
     * f-forcher/uet-htsim c009cb77, whose outputs are the spraying and REPS references
     * (validate_load_balancing_snd.out): target 6 us, no quick-adapt gate, the proportional increase adds
     * the fair one, capped adjustments every 16 000 x target / 12 us bytes or 12 us, eta on its own 12 us
     * clock, trims outside the smoothed delay, quick adapt never raising the window.
     */
    C009CB77("c009cb77", 0);

    /** The values of {@code transport.uec_nscc}. */
    public static final List<String> NAMES = List.of(CURRENT.key, C009CB77.key);

    private final String key;
    private final int defaultQaGate;

    NsccVersion(String key, int defaultQaGate) {
        this.key = key;
        this.defaultQaGate = defaultQaGate;
    }

    /** The scenario name. */
    public String key() {
        return key;
    }

    /**
     * The quick-adapt gate exponent when {@code uec_qa_gate} is not given: uet-htsim b18eef44
     * initNsccParams, {@code -qa_gate} default 3; c009cb77 uec.cpp quick_adapt: no gate unless
     * {@code -enable_qa_gate}.
     */
    public int defaultQaGate() {
        return defaultQaGate;
    }

    /** @param key one of {@link #NAMES} */
    public static NsccVersion of(String key) {
        for (NsccVersion v : values()) if (v.key.equals(key)) return v;
        throw new IllegalArgumentException("unknown NSCC version " + key + " (allowed: " + String.join(", ", NAMES) + ")");
    }
}
