package lbsim.lb;

import java.util.List;
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
 * @param idealisations what this scheme's settings idealise against the hardware it stands for, each a
 *                  phrase for reports naming the key that removes it; empty for a scheme as deployed
 */
public record Scheme(String name, PathPolicy host, Function<Switch, ForwardingStrategy> switches,
                     List<String> idealisations) {
    public Scheme {
        idealisations = List.copyOf(idealisations);
    }

    /** A scheme that idealises nothing. */
    public Scheme(String name, PathPolicy host, Function<Switch, ForwardingStrategy> switches) {
        this(name, host, switches, List.of());
    }
}
