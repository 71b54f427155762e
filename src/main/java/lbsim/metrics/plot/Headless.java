package lbsim.metrics.plot;

/** Charts are drawn off-screen: AWT must run headless, set before the first AWT class loads. */
public final class Headless {
    private Headless() {}

    /** Sets {@code java.awt.headless=true} unless the user chose otherwise. */
    public static void ensure() {
        if (System.getProperty("java.awt.headless") == null) System.setProperty("java.awt.headless", "true");
    }
}
