package lbsim.lb;

import java.util.function.Function;
import lbsim.net.ForwardingStrategy;
import lbsim.net.Switch;
import lbsim.transport.PathPolicy;

/**
 * A load-balancing scheme instantiated for one run: its host half and its switch half.
 *
 * @param name      registry name
 * @param host      host half (QP split, entropy / path choice)
 * @param switches  switch half, one strategy per switch
 */
public record Scheme(String name, PathPolicy host, Function<Switch, ForwardingStrategy> switches) {
}
