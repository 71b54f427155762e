package lbsim.net;

/** Decides whether a packet leaving a port is lost on the wire (flaky links). */
public interface LinkLoss {
    boolean drops(long nowPs);
}
