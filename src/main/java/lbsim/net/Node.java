package lbsim.net;

import lbsim.engine.EventHandler;

/** A host or switch: owns its egress ports and receives packets that arrive on them. */
public abstract class Node implements EventHandler {
    /** Event kind: a packet arrives; arg = local ingress port, obj = the packet. */
    public static final int ARRIVE = 0;

    protected final Network net;
    public final int id;
    protected Port[] ports;
    int touch;                  // written by Port.prefetch (a store that brings the line in without stalling)

    protected Node(Network net, int id) {
        this.net = net;
        this.id = id;
    }

    public Port port(int local) {
        return ports[local];
    }

    public int portCount() {
        return ports.length;
    }

    void setPorts(Port[] ports) {
        this.ports = ports;
    }

    public String name() {
        return net.topology().nodeName(id);
    }

    @Override
    public void onEvent(int kind, long arg, Object obj) {
        receive((Packet) obj, (int) arg);
    }

    protected abstract void receive(Packet p, int inPort);

    /** Called when a port starts serialising a packet: it leaves this node's buffer (see {@link Port}). */
    protected void onDequeued(Port port, Packet p) {}
}
