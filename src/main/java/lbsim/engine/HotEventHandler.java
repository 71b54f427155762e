package lbsim.engine;

/**
 * Base class of the one component type that handles most events of a run (network ports: two
 * events per packet and link). The event loop calls it through this class instead of the
 * interface: with a single subclass loaded the JIT binds and inlines that call, where the
 * interface call over a dozen handler types would stay a megamorphic dispatch.
 */
public abstract class HotEventHandler implements EventHandler {
    @Override
    public abstract void onEvent(int kind, long arg, Object obj);
}
