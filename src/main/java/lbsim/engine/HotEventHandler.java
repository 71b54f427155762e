package lbsim.engine;

/**
 * Base class of the one component type that handles most events of a run (network ports: one
 * or two events per packet and link). The event loop calls it through this class instead of the
 * interface: with a single subclass loaded the JIT binds and inlines that call, where the
 * interface call over a dozen handler types would stay a megamorphic dispatch.
 *
 * <p>The handler is also the owned event record of its most frequent event kind (schedule
 * {@code this} with {@link Simulation#scheduleOwned}): the record's fields are the first ones of
 * the object, so that event costs no separate record to load.
 */
public abstract class HotEventHandler extends EventQueue.Ev implements EventHandler {
    /** {@code ownKind}: the kind of the event this handler's own record carries. */
    protected HotEventHandler(int ownKind) {
        super(ownKind);
    }

    @Override
    public abstract void onEvent(int kind, long arg, Object obj);

    /**
     * Called when an event of this handler of {@code kind} has become the next event, before the
     * current one runs: touches what that event will read first (a store to a scratch field
     * stalls less than a load), so on large fabrics its cache misses overlap the current event's
     * instead of following them. Must not change the simulation's state.
     */
    public void prefetch(int kind) {}
}
