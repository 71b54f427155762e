package lbsim.plan;

import lbsim.BadInputException;

/** A parsed IPv4 address with an optional prefix length (used for DNLB NIC indices and next hops). */
record Ipv4(long address, int prefix, String text) {
    /** Prefix length assumed for a NIC address given without "/len". */
    static final int DEFAULT_NIC_PREFIX = 24;

    /** The host part of the address: the bits after the prefix. */
    long hostPart() {
        return prefix >= 32 ? 0 : address & ((1L << (32 - prefix)) - 1);
    }

    /** The address without prefix, dotted quad. */
    String dotted() {
        return ((address >>> 24) & 255) + "." + ((address >>> 16) & 255) + "." + ((address >>> 8) & 255) + "."
                + (address & 255);
    }

    /**
     * Parses {@code a.b.c.d} or, when {@code allowPrefix}, {@code a.b.c.d/len} with len in 1..31.
     *
     * @throws BadInputException naming {@code option}
     */
    static Ipv4 parse(String value, String option, boolean allowPrefix, int defaultPrefix) {
        String v = value == null ? "" : value.trim();
        int prefix = defaultPrefix;
        String addr = v;
        int slash = v.indexOf('/');
        if (slash >= 0) {
            if (!allowPrefix) {
                throw new BadInputException(option + ": '" + value + "' must be a plain IPv4 address a.b.c.d (no /prefix)");
            }
            addr = v.substring(0, slash);
            try {
                prefix = Integer.parseInt(v.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 1 || prefix > 31) {
                throw new BadInputException(option + ": '" + value + "' has an invalid prefix length; allowed: /1 to /31");
            }
        }
        String[] parts = addr.split("\\.", -1);
        if (parts.length != 4) {
            throw new BadInputException(option + ": '" + value + "' is not an IPv4 address"
                    + (allowPrefix ? " (expected a.b.c.d or a.b.c.d/len)" : " (expected a.b.c.d)"));
        }
        long a = 0;
        for (String p : parts) {
            int octet;
            if (p.length() > 1 && p.charAt(0) == '0') {
                // 010 is octal 8 to inet_aton but 10 to others: ambiguous
                throw new BadInputException(option + ": '" + value + "' has an octet with a leading zero, which some tools read"
                        + " as octal; allowed: octets 0..255 in plain decimal (e.g. 10.0.0.1)");
            }
            octet = p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9') ? -1 : Integer.parseInt(p);
            if (octet < 0 || octet > 255) {
                throw new BadInputException(option + ": '" + value + "' is not an IPv4 address (octets must be 0..255)");
            }
            a = (a << 8) | octet;
        }
        Ipv4 ip = new Ipv4(a, prefix, v);
        if (allowPrefix && prefix <= 30 && (ip.hostPart() == 0 || ip.hostPart() == (1L << (32 - prefix)) - 1)) {
            throw new BadInputException(option + ": '" + value + "' is the " + (ip.hostPart() == 0 ? "network" : "broadcast")
                    + " address of its /" + prefix + " (default /" + DEFAULT_NIC_PREFIX + "), not a NIC's; allowed: host parts 1.."
                    + ((1L << (32 - prefix)) - 2) + " (or a /31)");
        }
        return ip;
    }
}
