package lbsim.net;

/** Header fields that switch load balancers write into packets (see {@link Packet#lb()}). */
public final class LbHeader {
    // ConWeave header (Song et al. SIGCOMM 2023 §3), written by the source ToR
    public int cwEpoch;         // 0 = untagged
    public int cwPhase;
    public int cwFlag;          // data: DATA/INIT/TAIL; LB_CONTROL: REPLY_INIT/REPLY_TAIL/NOTIFY
    public int cwPath;          // the source-ToR uplink (local port) the packet took
    public long cwTxPs;         // source-ToR departure time
    public long cwTailPs;       // source-ToR time of the epoch's TAIL, 0 if none yet
    public int lbTag = -1;      // CONGA: uplink index at the source leaf, -1 if none
    public int ce;              // CONGA: max quantised DRE along the path
    public int fbTag = -1;      // CONGA: piggybacked feedback: an uplink index of the destination leaf, -1 if none
    public int fbMetric;        // CONGA: piggybacked feedback metric

    void reset() {
        cwEpoch = cwPhase = cwFlag = cwPath = 0;
        cwTxPs = cwTailPs = 0;
        lbTag = fbTag = -1;
        ce = fbMetric = 0;
    }
}
