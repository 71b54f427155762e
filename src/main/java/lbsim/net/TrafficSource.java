package lbsim.net;

/** Something a NIC pulls data packets from when its wire is free. */
public interface TrafficSource {
    /** The next packet to put on the wire, or null when there is nothing sendable now. */
    Packet nextPacket();

    /** True when {@link #nextPacket} would certainly return null (no sender is waiting). */
    boolean idle();
}
