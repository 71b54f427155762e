package lbsim.topology;

/** Layer of a node in a Clos fabric, from the hosts (NICs) up. */
public enum Tier {
    HOST, TOR, AGG, CORE
}
