package lbsim.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm-style host lists: {@code node[01-16]}, {@code gpu[1,3,5-7]-ib}, {@code s[0-3]n[0-7]}
 * (several bracket groups expand as nested loops, the first outermost), and comma-separated
 * lists of such patterns at the top level ({@code a[1-2],b}). Numbers keep the zero padding of the
 * range's first bound ({@code [01-16]} gives {@code 01 .. 16}), as Slurm's hostlist does.
 */
public final class Hostlist {
    private Hostlist() {}

    /** Most names one pattern may expand to (a typo such as [0-99999999] should not exhaust memory). */
    public static final int MAX_NAMES = 1 << 22;

    /** The names a pattern stands for, in order; IllegalArgumentException says what is malformed. */
    public static List<String> expand(String pattern) {
        List<String> out = new ArrayList<>();
        for (String part : splitTopLevel(pattern)) {
            if (part.isEmpty()) throw new IllegalArgumentException("empty name in host list '" + pattern + "'");
            expandInto("", part, pattern, out);
        }
        return out;
    }

    /** Splits at commas outside brackets. */
    private static List<String> splitTopLevel(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0, start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') depth++;
            else if (c == ']') depth--;
            else if (c == ',' && depth == 0) {
                parts.add(s.substring(start, i).trim());
                start = i + 1;
            }
        }
        parts.add(s.substring(start).trim());
        return parts;
    }

    private static void expandInto(String prefix, String rest, String whole, List<String> out) {
        int open = rest.indexOf('[');
        if (open < 0) {
            if (rest.indexOf(']') >= 0) throw new IllegalArgumentException("']' without '[' in host list '" + whole + "'");
            add(out, prefix + rest, whole);
            return;
        }
        int close = rest.indexOf(']', open);
        if (close < 0) throw new IllegalArgumentException("'[' without ']' in host list '" + whole + "'");
        String head = prefix + rest.substring(0, open);
        if (head.indexOf(']') >= 0) throw new IllegalArgumentException("']' without '[' in host list '" + whole + "'");
        String tail = rest.substring(close + 1);
        for (String item : rest.substring(open + 1, close).split(",", -1)) {
            String t = item.trim();
            int dash = t.indexOf('-');
            String lo = dash < 0 ? t : t.substring(0, dash);
            String hi = dash < 0 ? t : t.substring(dash + 1);
            if (!lo.matches("[0-9]{1,9}") || !hi.matches("[0-9]{1,9}")) {
                throw new IllegalArgumentException("'[" + rest.substring(open + 1, close) + "]' in host list '" + whole
                        + "': expected numbers and ranges like [1-4,7] or [01-16]");
            }
            int a = Integer.parseInt(lo), b = Integer.parseInt(hi);
            if (b < a) throw new IllegalArgumentException("range " + t + " in host list '" + whole + "' runs backwards");
            int width = lo.length();
            for (int x = a; x <= b; x++) {
                String num = String.valueOf(x);
                while (num.length() < width) num = "0" + num;
                expandInto(head + num, tail, whole, out);
            }
        }
    }

    private static void add(List<String> out, String name, String whole) {
        if (out.size() >= MAX_NAMES) throw new IllegalArgumentException("host list '" + whole + "' names more than " + MAX_NAMES + " nodes");
        out.add(name);
    }
}
