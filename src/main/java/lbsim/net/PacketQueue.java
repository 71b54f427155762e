package lbsim.net;

/** FIFO ring buffer of packets; grows by doubling, never shrinks. */
public final class PacketQueue {
    private Packet[] ring = new Packet[16];
    private int head;
    private int size;

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    public void add(Packet p) {
        if (size == ring.length) grow();
        ring[(head + size) & (ring.length - 1)] = p;
        size++;
    }

    public Packet peek() {
        return size == 0 ? null : ring[head];
    }

    public Packet poll() {
        if (size == 0) return null;
        Packet p = ring[head];
        ring[head] = null;
        head = (head + 1) & (ring.length - 1);
        size--;
        return p;
    }

    /** The i-th packet from the head (0 = head). */
    public Packet get(int i) {
        return ring[(head + i) & (ring.length - 1)];
    }

    private void grow() {
        Packet[] bigger = new Packet[ring.length * 2];
        for (int i = 0; i < size; i++) bigger[i] = ring[(head + i) & (ring.length - 1)];
        ring = bigger;
        head = 0;
    }
}
