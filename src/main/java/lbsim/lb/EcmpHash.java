package lbsim.lb;

import lbsim.net.Packet;

/**
 * Switch hash of the RoCEv2 5-tuple (src, dst, UDP source port, UDP destination port 4791,
 * protocol 17) with a per-switch seed, as ECMP hardware does. Mixing is MurmurHash3's
 * 64-bit finaliser applied per field, so every input bit reaches every output bit.
 */
public final class EcmpHash {
    private EcmpHash() {}

    public static long hash(long seed, int src, int dst, int sport, int dport, int proto) {
        long h = seed;
        h = fmix(h ^ src);
        h = fmix(h + ((long) dst << 1));
        h = fmix(h ^ (((long) sport << 16) | dport));
        h = fmix(h + proto);
        return h;
    }

    public static long hash(long seed, Packet p) {
        return hash(seed, p.src, p.dst, p.sport, Packet.ROCE_DPORT, Packet.PROTO_UDP);
    }

    /** Maps a hash onto {@code n} buckets without modulo bias worth mentioning. */
    public static int bucket(long hash, int n) {
        return (int) (((hash >>> 32) * n) >>> 32);
    }

    static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
