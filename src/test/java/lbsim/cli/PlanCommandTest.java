package lbsim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code lbsim plan ...} through {@link Main#execute(String...)}: exit codes and output of every format. */
class PlanCommandTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    record Result(int exit, String out, String err) {
        JsonNode json() {
            return JSON.readTree(out);
        }
    }

    private static Result run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int exit = Main.execute(args);
            System.out.flush();
            System.err.flush();
            return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    // ------------------------------------------------------------------ dnlb

    @Test
    void dnlbTextIsThePapersAclAndRouteMap() {
        // CTCCL paper 003 §4.1 example: 8 uplinks, udf1 = 49152-51199 ... udf8 = 63488-65535
        Result r = run("plan", "dnlb", "--uplinks", "8", "--nics-per-leaf", "2", "--qps", "8", "--dscp", "26");
        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .contains("ip access-list extended udf1\n  10 permit udp any range 49152 51199 any eq 4791 dscp 26\n")
                .contains("ip access-list extended udf2\n  10 permit udp any range 51200 53247 any eq 4791 dscp 26\n")
                .contains("ip access-list extended udf8\n  10 permit udp any range 63488 65535 any eq 4791 dscp 26\n")
                .contains("route-map udf permit 10\n  match ip address udf1\n  set ip next-hop ")
                .contains("route-map udf permit 80\n  match ip address udf8\n")
                .contains("===== leaf 0 =====")
                .doesNotContain("WARNING");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void dnlbTextHasOneConfigurationPerLeaf() {
        Result r = run("plan", "dnlb", "--uplinks", "4", "--nics-per-leaf", "2", "--qps", "2", "--leaves", "3",
                "--next-hops", "10.0.0.1,10.0.0.5,10.0.0.9,10.0.0.13");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("===== leaf 2 =====").doesNotContain("===== leaf 3 =====")
                .contains("set ip next-hop 10.0.0.13").doesNotContain("<leaf");
        assertThat(r.out().split("ip access-list extended udf1\n", -1)).hasSize(4);
    }

    @Test
    void dnlbJsonHasRowsRangesAndWarnings() {
        Result r = run("plan", "dnlb", "--uplinks", "6", "--nics-per-leaf", "3", "--qps", "2", "--format", "json");
        assertThat(r.exit()).isZero();
        JsonNode json = r.json();
        assertThat(json.get("plan").asString()).isEqualTo("dnlb");
        assertThat(json.get("rows").size()).isEqualTo(6);
        JsonNode row = json.get("rows").get(5); // nic 2, qp 1: k = 5 -> last range
        assertThat(row.get("nic").asInt()).isEqualTo(2);
        assertThat(row.get("qp").asInt()).isEqualTo(1);
        assertThat(row.get("sport").asInt()).isEqualTo(62805);
        assertThat(row.get("uplink").asInt()).isEqualTo(5);
        assertThat(json.get("ranges").size()).isEqualTo(6);
        assertThat(json.get("ranges").get(0).get("first").asInt()).isEqualTo(49152);
        assertThat(json.get("ranges").get(5).get("last").asInt()).isEqualTo(65535);
        assertThat(json.get("warnings").isArray()).isTrue();
        assertThat(json.get("warnings").size()).isZero();
        assertThat(json.get("eq4").get("satisfied").asBoolean()).isTrue();
    }

    @Test
    void dnlbCsvHasTheContractColumns() {
        Result r = run("plan", "dnlb", "--uplinks", "8", "--nics-per-leaf", "2", "--qps", "4", "--format", "csv");
        assertThat(r.exit()).isZero();
        String[] lines = r.out().split("\n");
        assertThat(lines[0]).isEqualTo("nic,qp,sport,uplink,leaf,nic_index,ip");
        assertThat(lines).hasSize(1 + 2 * 4);
        assertThat(lines[1]).isEqualTo("0,0,49152,0,0,0,");
        assertThat(lines[8]).isEqualTo("1,3,63488,7,0,1,"); // k = 1*4 + 3 = 7
        assertThat(r.err()).isEmpty();
    }

    @Test
    void dnlbEq4ViolationIsAWarningInEveryFormat() {
        // CTCCL §3.3 Eq. 4: 1 NIC x 4 QPs < 8 uplinks
        String[] base = {"plan", "dnlb", "--uplinks", "8", "--nics-per-leaf", "1", "--qps", "4"};
        Result text = run(base);
        assertThat(text.exit()).isZero();
        assertThat(text.out()).contains("WARNING: Eq. 4 not satisfied");
        Result json = run(concat(base, "--format", "json"));
        assertThat(json.exit()).isZero();
        assertThat(json.json().get("warnings").get(0).asString()).contains("Eq. 4");
        Result csv = run(concat(base, "--format", "csv"));
        assertThat(csv.exit()).isZero();
        assertThat(csv.out()).doesNotContain("WARNING");
        assertThat(csv.err()).startsWith("WARNING: Eq. 4 not satisfied");
    }

    @Test
    void dnlbNicAddressesSetTheIndex() {
        Result r = run("plan", "dnlb", "--uplinks", "4", "--nics-per-leaf", "2", "--qps", "2", "--nic-ips",
                "192.168.1.10,192.168.1.11", "--format", "csv");
        assertThat(r.exit()).isZero();
        // index 10, nqp 2: k = 20, 21 -> uplinks 0, 1; index 11: k = 22, 23 -> uplinks 2, 3
        assertThat(r.out()).contains("\n0,0,49152,0,0,10,192.168.1.10\n").contains("\n1,1,61440,3,0,11,192.168.1.11\n");
    }

    // ------------------------------------------------------------------ paralet, subflows, capacity

    @Test
    void paraletInEveryFormat() {
        Result text = run("plan", "paralet", "--nodes", "100000", "--slowdown", "2");
        assertThat(text.exit()).isZero();
        assertThat(text.out()).contains("\nm: 19\n").contains("note:").contains("~ 25");
        Result json = run("plan", "paralet", "--nodes", "128", "--slowdown", "1.5", "--bdp-bytes", "125000",
                "--format", "json");
        assertThat(json.exit()).isZero();
        assertThat(json.json().get("m").asLong()).isEqualTo(24);
        assertThat(json.json().get("flowlet_bytes").asLong()).isEqualTo(20_834);
        Result csv = run("plan", "paralet", "--nodes", "1000000000", "--slowdown", "2", "--format", "csv");
        assertThat(csv.exit()).isZero();
        assertThat(csv.out().split("\n")[1]).startsWith("36,1000000000,2,");
    }

    @Test
    void subflowsInEveryFormat() {
        String[] base = {"plan", "subflows", "--queue-bytes", "32768", "--mtu", "4096", "--flows-per-host", "1",
            "--dupack", "3"};
        Result text = run(base);
        assertThat(text.exit()).isZero();
        assertThat(text.out()).contains("\nsubflows: 11\n");
        Result json = run(concat(base, "--format", "json"));
        assertThat(json.json().get("subflows").asLong()).isEqualTo(11);
        Result csv = run(concat(base, "--format", "csv", "--queues", "2"));
        assertThat(csv.exit()).isZero();
        assertThat(csv.out().split("\n")[1]).startsWith("6,32768,4096,1,3,2,");
    }

    @Test
    void capacityInEveryFormat() {
        Result text = run("plan", "capacity", "--k", "8", "--failed-links", "2", "--lost-fraction", "0.9");
        assertThat(text.exit()).isZero();
        assertThat(text.out()).contains("\nsufficient: true\n").contains("margin");
        Result json = run("plan", "capacity", "--k", "8", "--failed-links", "3", "--lost-fraction", "90%",
                "--reading", "lost-bandwidth", "--format", "json");
        assertThat(json.exit()).isZero();
        assertThat(json.json().get("sufficient").asBoolean()).isFalse();
        assertThat(json.json().get("lost_fraction").asDouble()).isEqualTo(0.9);
        Result csv = run("plan", "capacity", "--k", "8", "--failed-links", "9", "--lost-fraction", "0.2",
                "--format", "csv");
        assertThat(csv.exit()).isZero();
        assertThat(csv.out().split("\n")[1]).as("the default reading is lost-bandwidth").startsWith("true,8,9,0.2,lost-bandwidth,127,");
        assertThat(csv.err()).contains("WARNING").contains("disagree");
    }

    @Test
    void outputIsDeterministic() {
        String[][] commands = {
            {"plan", "dnlb", "--uplinks", "12", "--nics-per-leaf", "3", "--qps", "5", "--leaves", "2", "--format", "json"},
            {"plan", "paralet", "--nodes", "4096", "--slowdown", "1.3", "--format", "json"},
            {"plan", "capacity", "--k", "16", "--failed-links", "5", "--lost-fraction", "0.3", "--format", "json"},
        };
        for (String[] c : commands) {
            Result a = run(c);
            assertThat(a.exit()).isZero();
            assertThat(run(c).out()).isEqualTo(a.out());
        }
    }

    // ------------------------------------------------------------------ bad input: exit code 2 with a message

    @Test
    void badFormatIsRejected() {
        Result r = run("plan", "paralet", "--nodes", "128", "--slowdown", "1.5", "--format", "xml");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--format").contains("text, json, csv");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void badValuesAreRejectedNamingTheOption() {
        assertBad(new String[] {"plan", "dnlb", "--uplinks", "0", "--nics-per-leaf", "1", "--qps", "1"},
                "--uplinks", "1..16384");
        assertBad(new String[] {"plan", "dnlb", "--uplinks", "8", "--nics-per-leaf", "1", "--qps", "8", "--dscp", "99"},
                "--dscp", "0..63");
        assertBad(new String[] {"plan", "dnlb", "--uplinks", "8", "--nics-per-leaf", "2", "--qps", "8", "--nic-ips",
            "10.0.0.1"}, "--nic-ips", "2");
        assertBad(new String[] {"plan", "paralet", "--nodes", "128", "--slowdown", "1"}, "--slowdown", "> 1");
        assertBad(new String[] {"plan", "paralet", "--nodes", "1", "--slowdown", "2"}, "--nodes", ">= 2");
        assertBad(new String[] {"plan", "subflows", "--queue-bytes", "32768", "--mtu", "0", "--flows-per-host", "1",
            "--dupack", "3"}, "--mtu", ">= 1");
        assertBad(new String[] {"plan", "capacity", "--k", "7", "--failed-links", "1", "--lost-fraction", "0.5"},
                "--k", "even");
        assertBad(new String[] {"plan", "capacity", "--k", "8", "--failed-links", "1", "--lost-fraction", "lots"},
                "--lost-fraction", "0..1");
        assertBad(new String[] {"plan", "capacity", "--k", "8", "--failed-links", "1", "--lost-fraction", "0.5",
            "--reading", "x"}, "--reading", "as-printed, lost-bandwidth");
    }

    @Test
    void byteCountOptionsTakeUnits() {
        Result plain = run("plan", "subflows", "--queue-bytes", "32768", "--mtu", "4096", "--flows-per-host", "1", "--dupack", "3",
                "--format", "csv");
        Result units = run("plan", "subflows", "--queue-bytes", "32KiB", "--mtu", "4KiB", "--flows-per-host", "1", "--dupack", "3",
                "--format", "csv");
        assertThat(units.exit()).as(units.err()).isZero();
        assertThat(units.out()).isEqualTo(plain.out());
        Result bdp = run("plan", "paralet", "--nodes", "128", "--slowdown", "1.5", "--bdp-bytes", "125kB", "--format", "csv");
        assertThat(bdp.out()).isEqualTo(run("plan", "paralet", "--nodes", "128", "--slowdown", "1.5", "--bdp-bytes", "125000",
                "--format", "csv").out());
        Result bad = run("plan", "subflows", "--queue-bytes", "32K", "--mtu", "4096", "--flows-per-host", "1", "--dupack", "3");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("--queue-bytes", "unknown unit 'K'", "KiB, MiB");
    }

    /** The audit's finding 4: 4 * BDP overflowed (negative flowlet_bytes, or exit 1 with an ArithmeticException). */
    @Test
    void bdpBytesWhoseFourfoldOverflowsIsRejectedAndTheLargestAllowedWorks() {
        for (String b : new String[] {"2305843009213693952", "9223372036854775807", "0"}) {
            assertBad(new String[] {"plan", "paralet", "--nodes", "100", "--slowdown", "2", "--bdp-bytes", b, "--format", "csv"},
                    "--bdp-bytes", "1..2305843009213693951", "got " + b);
        }
        Result max = run("plan", "paralet", "--nodes", "100", "--slowdown", "2", "--bdp-bytes", "2305843009213693951", "--format", "json");
        assertThat(max.exit()).as(max.err()).isZero();
        long m = max.json().get("m").asLong();
        // ceil(4 * B / m), exactly
        java.math.BigInteger four = java.math.BigInteger.valueOf(2305843009213693951L).shiftLeft(2);
        java.math.BigInteger[] qr = four.divideAndRemainder(java.math.BigInteger.valueOf(m));
        long want = qr[0].longValueExact() + (qr[1].signum() == 0 ? 0 : 1);
        assertThat(max.json().get("flowlet_bytes").asLong()).isEqualTo(want).isPositive();
    }

    /** The audit's finding 5: 1e-999999999 overflowed BigInteger (exit 1); 1e999999999 echoed a billion digits. */
    @Test
    void extremeLostFractionsAreRejectedEchoingTheValueAsGiven() {
        for (String p : new String[] {"1e-999999999", "1e999999999", "-1e999999999", "1e-1001", "1e999999999%"}) {
            String[] args = {"plan", "capacity", "--k", "8", "--failed-links", "1", "--lost-fraction", p};
            assertBad(args, "--lost-fraction", "0..1", "got '" + p + "'");
            assertThat(run(args).err().length()).as(p).isLessThan(300);
        }
        Result small = run("plan", "capacity", "--k", "8", "--failed-links", "1", "--lost-fraction", "1e-1000", "--format", "csv");
        assertThat(small.exit()).as(small.err()).isZero();
        Result zeros = run("plan", "capacity", "--k", "8", "--failed-links", "1", "--lost-fraction", "0.5" + "0".repeat(2000), "--format", "csv");
        assertThat(zeros.exit()).as(zeros.err()).isZero();
    }

    /** The audit's finding 7: -V is in every subcommand's --help but printed nothing below the top level. */
    @Test
    void everySubcommandPrintsTheVersion() {
        String version = run("--version").out();
        assertThat(version).startsWith("lbsim ");
        for (String cmd : new String[] {"run", "compare", "bench", "sweep", "merge", "reproduce", "plan", "plan dnlb", "plan paralet",
            "plan subflows", "plan capacity", "plan ethereal"}) {
            for (String opt : new String[] {"-V", "--version"}) {
                Result r = run(concat(cmd.split(" "), opt));
                assertThat(r.exit()).as(cmd + " " + opt).isZero();
                assertThat(r.out()).as(cmd + " " + opt).isEqualTo(version);
            }
        }
    }

    /** Audit minor findings: D = Infinity in a numeric JSON field; an overflow message that never named --queues; ceil overflow. */
    @Test
    void subflowsRefusesAnInfiniteDelayAndNamesQueuesOnOverflow() {
        String[] base = {"plan", "subflows", "--queue-bytes", "32768", "--mtu", "4096", "--flows-per-host", "1", "--dupack", "3"};
        assertBad(concat(base, "--link-gbps", "1e-308", "--format", "json"), "--link-gbps", "finite");
        assertBad(new String[] {"plan", "subflows", "--queue-bytes", "4611686018427387904", "--mtu", "1", "--flows-per-host", "1",
            "--dupack", "1", "--queues", "2"}, "--queues", "--queue-bytes");
        // h*q = 2^63 - 2 with a denominator of 3: (num + den - 1) overflowed to a negative and gave s = 1
        Result big = run("plan", "subflows", "--queue-bytes", "4611686018427387903", "--mtu", "1", "--flows-per-host", "1",
                "--dupack", "3", "--queues", "2", "--format", "json");
        assertThat(big.exit()).as(big.err()).isZero();
        assertThat(big.json().get("subflows").asLong()).isEqualTo(3074457345618258602L);
    }

    /** Audit minor findings: --nic-ips took network and broadcast addresses and octets with leading zeros (octal to some tools). */
    @Test
    void nicAddressesMustBeHostAddressesInPlainDecimal() {
        String[] base = {"plan", "dnlb", "--uplinks", "2", "--nics-per-leaf", "2", "--qps", "1", "--nic-ips"};
        assertBad(concat(base, "010.0.0.1,10.0.0.2"), "--nic-ips", "'010.0.0.1'", "leading zero");
        assertBad(concat(base, "10.0.0.1,+10.0.0.2"), "--nic-ips", "'+10.0.0.2'", "0..255");
        assertBad(concat(base, "10.0.0.0,10.0.0.1"), "--nic-ips", "'10.0.0.0'", "network address", "1..254");
        assertBad(concat(base, "10.0.0.254,10.0.0.255"), "--nic-ips", "'10.0.0.255'", "broadcast address");
        assertBad(concat(base, "10.0.3.255/22,10.0.4.0/22"), "--nic-ips", "'10.0.3.255/22'", "broadcast", "1..1022");
        assertBad(new String[] {"plan", "dnlb", "--uplinks", "2", "--nics-per-leaf", "1", "--qps", "2", "--next-hops", "10.0.0.01,10.0.0.2"},
                "--next-hops", "leading zero");
        assertThat(run(concat(base, "10.0.0.1,10.0.0.2")).exit()).isZero();
        assertThat(run(concat(base, "10.0.0.0/31,10.0.0.1/31")).exit()).isZero(); // a /31 has no network or broadcast address
        assertThat(run(concat(base, "10.0.0.0/16,10.0.1.0/16")).exit()).isNotZero();
        assertThat(run(concat(base, "10.0.1.0/16,10.0.1.1/16")).exit()).isZero();
    }

    @Test
    void missingOrUnknownArgumentsExitWithTwo() {
        Result missing = run("plan", "paralet", "--nodes", "128");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("--slowdown");
        Result noKind = run("plan");
        assertThat(noKind.exit()).isEqualTo(2);
        assertThat(noKind.err()).contains("dnlb, paralet, subflows, capacity");
        Result notANumber = run("plan", "dnlb", "--uplinks", "eight", "--nics-per-leaf", "1", "--qps", "1");
        assertThat(notANumber.exit()).isEqualTo(2);
        assertThat(notANumber.err()).contains("--uplinks");
    }

    private static void assertBad(String[] args, String... fragments) {
        Result r = run(args);
        assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(2);
        assertThat(r.err()).as(String.join(" ", args)).startsWith("lbsim: ").contains(fragments);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
    @Test
    void everyPlanCitesItsPaperByTitleNotByAFileAUserDoesNotHave() {
        String[][] plans = {
            {"plan", "dnlb", "--uplinks", "8", "--nics-per-leaf", "2", "--qps", "8", "--dscp", "26"},
            {"plan", "paralet", "--nodes", "128", "--slowdown", "2"},
            {"plan", "capacity", "--k", "8", "--failed-links", "2", "--lost-fraction", "0.9"},
            {"plan", "subflows", "--queue-bytes", "32768", "--mtu", "4096", "--flows-per-host", "1", "--dupack", "3"}};
        String[] titles = {"CTCCL: Cost-Efficient Joint Device-Network Load Balancing",
            "Network Load Balancing with Parallel Flowlets for AI Training Clusters",
            "Load Balancing for AI Training Workloads", "Load Balancing for AI Training Workloads"};
        for (int i = 0; i < plans.length; i++) {
            for (String format : new String[] {"text", "json"}) {
                Result r = run(concat(plans[i], "--format", format));
                assertThat(r.exit()).as(r.err()).isZero();
                assertThat(r.out()).as(plans[i][1] + " " + format).contains(titles[i]).doesNotContain("papers/", ".txt");
            }
        }
    }
}
