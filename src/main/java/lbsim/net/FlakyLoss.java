package lbsim.net;

import java.util.SplittableRandom;

/**
 * Bursts of total loss with Poisson arrivals and exponential durations (McClure et al. §4:
 * mean gap 100 us, mean burst 10 us). Evaluated lazily when a packet leaves, so a flaky
 * link schedules no events and costs nothing while idle.
 */
public final class FlakyLoss implements LinkLoss {
    private final SplittableRandom rnd;
    private final double meanGapPs;
    private final double meanBurstPs;
    private long burstStart;
    private long burstEnd;

    public FlakyLoss(long startPs, double meanGapPs, double meanBurstPs, SplittableRandom rnd) {
        this.rnd = rnd;
        this.meanGapPs = meanGapPs;
        this.meanBurstPs = meanBurstPs;
        this.burstEnd = startPs;
        next();
    }

    private double exp(double mean) {
        return -mean * Math.log(1.0 - rnd.nextDouble());
    }

    private void next() {
        burstStart = burstEnd + (long) exp(meanGapPs);
        burstEnd = burstStart + (long) exp(meanBurstPs);
    }

    @Override
    public String toString() {
        return "loss bursts every " + meanGapPs / 1e6 + " us on average, " + meanBurstPs / 1e6 + " us long";
    }

    @Override
    public boolean drops(long nowPs) {
        while (nowPs >= burstEnd) next();
        return nowPs >= burstStart;
    }
}
