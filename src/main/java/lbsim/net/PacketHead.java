package lbsim.net;

/**
 * The fields of a {@link Packet} that every hop reads or writes: routing, buffer accounting,
 * ECN and the link to the packet behind it in a queue or on a wire. Fields of a superclass are
 * laid out first in the object, so these sit in its first 64 bytes (one or two cache lines)
 * instead of being spread over its two or three; on large fabrics a packet is a cache miss at
 * every hop.
 */
abstract class PacketHead {
    public int kind;
    public int priority;
    public int src;             // host ids
    public int dst;
    public int sport;           // UDP source port: the ECMP entropy
    public int wireBytes;
    public int ingressPort;     // local port at the current switch (buffer accounting)
    public boolean sourceRouted;
    public boolean ecnCapable;
    public boolean ecnMarked;   // CE on data; ECN-echo on ACKs
    public boolean trimmed;
    int touch;                  // written by Port.prefetch (a store that brings the line in without stalling)
    // Port's intrusive lists: a packet is in at most one output queue or on one wire at a time,
    // linked to the one behind it, so a hop reads no queue array (Port)
    Packet next;
    long nextArrivalPs;         // on a wire: when the packet behind this one arrives (read without loading it)
}
