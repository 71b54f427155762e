package lbsim.engine;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Named random streams derived from the run seed. Each purpose ("ecmp.leaf3", "workload")
 * gets its own generator, so adding a component never shifts the numbers another one draws.
 */
public final class RandomStreams {
    private final long seed;

    public RandomStreams(long seed) {
        this.seed = seed;
    }

    public long seed() {
        return seed;
    }

    public SplittableRandom stream(String name) {
        return new SplittableRandom(derive(name));
    }

    /** A 64-bit value fixed by the seed and the name (e.g. a per-switch hash seed). */
    public long derive(String name) {
        long h = 0xcbf29ce484222325L; // FNV-1a over the name's bytes: stable across JVMs
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x100000001b3L;
        }
        return mix64(seed * 0x9E3779B97F4A7C15L + h);
    }

    /** SplitMix64 finaliser. */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
