package lbsim.metrics;

/**
 * Utilisation of one class of links (same tiers and rate, one direction), e.g. every
 * "leaf->spine 10G" link: how evenly a scheme spreads load (CTCCL §4 reports uplink utilisation and
 * its variance; Hopper §4.2 the utilisation of the slow 1G links). When the run has failures, the
 * means before and after the first failure are reported too (NaN otherwise).
 */
public record LinkClassRecord(String linkClass, int links, double meanUtilisation, double stdevUtilisation,
                              double maxUtilisation, double meanBeforeFailure, double meanAfterFailure) {
}
