package lbsim.net;

/** Where a host hands every packet addressed to it (the transport layer). */
public interface PacketSink {
    void deliver(Host host, Packet p);
}
