package lbsim.engine;

/**
 * A component that receives its own events. The queue stores the handler, a small integer
 * kind, a long argument and an object reference, so no event object is allocated per event.
 */
public interface EventHandler {
    void onEvent(int kind, long arg, Object obj);
}
