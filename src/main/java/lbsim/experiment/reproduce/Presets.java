package lbsim.experiment.reproduce;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lbsim.BadInputException;

/** The registry of paper presets ({@code lbsim reproduce --list}). */
public final class Presets {
    private static final Map<String, Preset> ALL = new LinkedHashMap<>();

    private Presets() {}

    private static void add(Preset p) {
        ALL.put(p.id(), p);
    }

    public static List<Preset> all() {
        return List.copyOf(ALL.values());
    }

    public static Preset get(String id) {
        Preset p = ALL.get(id);
        if (p == null) throw new BadInputException("reproduce: '" + id + "' is not a preset; available: " + String.join(", ", ALL.keySet()));
        return p;
    }

    // one line per paper: each paper's presets live in its own class
    static {
        EtherealPresets.all().forEach(Presets::add);
        McClurePresets.all().forEach(Presets::add);
        ParaletPresets.all().forEach(Presets::add);
        McClureRecoveryPresets.all().forEach(Presets::add);
        CtcclPresets.all().forEach(Presets::add);
        HopperPresets.all().forEach(Presets::add);
    }
}
