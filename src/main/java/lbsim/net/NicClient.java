package lbsim.net;

/**
 * A sender the NIC serves round-robin (a queue pair). Only clients with something to send
 * sit in the NIC's ring, so a packet costs O(1) whatever the number of connections.
 */
public abstract class NicClient {
    boolean inRing;

    /**
     * The next packet this client may send now, or null. Returning null takes the client out
     * of the ring; it must call {@link Host#activate} when it can send again.
     */
    protected abstract Packet pull();

    /**
     * The QP whose requester context the NIC needs to send this client's packets (its global QP
     * id), or -1 for none: such a client never misses the NIC's context cache. A field rather than
     * a method: the NIC reads it for every packet it sends while contexts can miss.
     */
    protected int contextId = -1;
}
