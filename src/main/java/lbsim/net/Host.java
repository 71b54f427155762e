package lbsim.net;

import java.util.Arrays;

/** A NIC endpoint: one port to its ToR and a round-robin scheduler over active queue pairs. */
public final class Host extends Node implements TrafficSource {
    private NicClient[] ring = new NicClient[8]; // power-of-two length
    private int head;
    private int size;

    Host(Network net, int id) {
        super(net, id);
    }

    public Port nic() {
        return ports[0];
    }

    /** Puts a client with data into the round-robin ring and starts the NIC if idle. */
    public void activate(NicClient c) {
        if (!c.inRing) {
            c.inRing = true;
            if (size == ring.length) grow();
            ring[(head + size) & (ring.length - 1)] = c;
            size++;
        }
        ports[0].kick();
    }

    /** Sends a control packet (ACK, NACK, CNP) at high priority. */
    public void sendControl(Packet p) {
        p.priority = Packet.PRIO_HIGH;
        net.countInjected(p);
        ports[0].enqueue(p);
    }

    /** Sends a host-generated packet (a path probe) in the data class, so it queues behind data like data does. */
    public void sendAtDataPriority(Packet p) {
        p.priority = Packet.PRIO_DATA;
        net.countInjected(p);
        ports[0].enqueue(p);
    }

    @Override
    public Packet nextPacket() {
        int tries = size;
        while (tries-- > 0) {
            NicClient c = ring[head];
            ring[head] = null;
            head = (head + 1) & (ring.length - 1);
            size--;
            Packet p = c.pull();
            if (p != null) {
                ring[(head + size) & (ring.length - 1)] = c;
                size++;
                return p;
            }
            c.inRing = false;
        }
        return null;
    }

    @Override
    public boolean idle() {
        return size == 0;
    }

    private void grow() {
        NicClient[] bigger = new NicClient[ring.length * 2];
        for (int i = 0; i < size; i++) bigger[i] = ring[(head + i) & (ring.length - 1)];
        Arrays.fill(ring, null);
        ring = bigger;
        head = 0;
    }

    @Override
    protected void receive(Packet p, int inPort) {
        net.arrivedAtHost(this, p);
    }
}
