package lbsim.plan;

import java.util.List;

/** A computed plan that can render itself deterministically in every {@link PlanFormat}. */
public interface Plan {

    /** The plan kind, as used on the command line ({@code dnlb}, {@code paralet}, ...). */
    String kind();

    /** Warnings about the plan (conditions of the source paper that are not met); empty if none. */
    List<String> warnings();

    /** Renders the plan; the same plan always renders to the same string. */
    String render(PlanFormat format);

    /** Writes {@link #render(PlanFormat)} to {@code out}; plans with many rows stream them instead of building one string. */
    default void render(PlanFormat format, java.io.Writer out) {
        try {
            out.write(render(format));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
