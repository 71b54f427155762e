package lbsim.net;

import java.util.Arrays;

/** Free list of packets so a steady-state run allocates none. */
public final class PacketPool {
    private Packet[] free = new Packet[1024];
    private int count;
    private long allocated;
    private long live;

    public Packet get() {
        live++;
        Packet p;
        if (count > 0) {
            p = free[--count];
            free[count] = null;
        } else {
            p = new Packet();
            allocated++;
        }
        p.reset();
        return p;
    }

    public void release(Packet p) {
        live--;
        if (count == free.length) free = Arrays.copyOf(free, count * 2);
        free[count++] = p;
    }

    /** Takes back the object of a packet that lives on in another form (an {@link RxBacklog}'s packed copy): still live. */
    void park(Packet p) {
        release(p);
        live++;
    }

    /** An object for a packet {@link #park}ed earlier (reset): live already, so not counted again. */
    Packet unpark() {
        Packet p = get();
        live--;
        return p;
    }

    /** Packets handed out and not yet released (in queues, on wires or held by receivers, packed or not). */
    public long live() {
        return live;
    }

    public long allocated() {
        return allocated;
    }
}
