package lbsim.workload.collective;

import java.util.Arrays;
import java.util.Collection;

/**
 * What a later flow waits for: every flow in {@code flowIds} delivered, then {@code extraGapPs}
 * more. The extra gap carries delays that are not fabric flows (zero-byte steps, transfers
 * between ranks on one host, compute), so they still reach the next flow's {@code gapPs}.
 * With no flow ids the gap counts from the flow's start time.
 *
 * <p>Joining tokens unions their flows and keeps the largest gap: exact when the gaps are
 * equal (the usual case) and otherwise a slight over-estimate (never too early).
 */
public record Completion(int[] flowIds, long extraGapPs) {
    private static final int[] NONE = new int[0];

    /** Ready at once (at the flow's start time). */
    public static final Completion NOW = new Completion(NONE, 0);

    public Completion {
        if (extraGapPs < 0) throw new IllegalArgumentException("negative gap");
        if (flowIds == null) flowIds = NONE;
    }

    public static Completion of(int flowId) {
        return new Completion(new int[] {flowId}, 0);
    }

    public static Completion after(int[] flowIds, long gapPs) {
        return new Completion(distinctSorted(flowIds), gapPs);
    }

    public Completion plus(long gapPs) {
        return gapPs == 0 ? this : new Completion(flowIds, extraGapPs + gapPs);
    }

    public static Completion join(Completion a, Completion b) {
        if (a.flowIds.length == 0 && a.extraGapPs <= b.extraGapPs) return b;
        if (b.flowIds.length == 0 && b.extraGapPs <= a.extraGapPs) return a;
        return join(Arrays.asList(a, b));
    }

    public static Completion join(Collection<Completion> parts) {
        int total = 0;
        long gap = 0;
        for (Completion c : parts) {
            total += c.flowIds.length;
            gap = Math.max(gap, c.extraGapPs);
        }
        int[] ids = new int[total];
        int at = 0;
        for (Completion c : parts) {
            System.arraycopy(c.flowIds, 0, ids, at, c.flowIds.length);
            at += c.flowIds.length;
        }
        return new Completion(distinctSorted(ids), gap);
    }

    private static int[] distinctSorted(int[] ids) {
        if (ids.length <= 1) return ids.clone();
        int[] s = ids.clone();
        Arrays.sort(s);
        int n = 1;
        for (int i = 1; i < s.length; i++) if (s[i] != s[n - 1]) s[n++] = s[i];
        return n == s.length ? s : Arrays.copyOf(s, n);
    }
}
