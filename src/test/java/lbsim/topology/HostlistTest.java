package lbsim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostlistTest {
    @Test
    void rangesListsPaddingAndSeveralGroupsExpandInOrder() {
        assertThat(Hostlist.expand("tux[0-3,12,18-20]")).containsExactly("tux0", "tux1", "tux2", "tux3", "tux12", "tux18", "tux19", "tux20");
        assertThat(Hostlist.expand("node[08-11]")).containsExactly("node08", "node09", "node10", "node11");
        assertThat(Hostlist.expand("s[0-1]n[0-2]")).containsExactly("s0n0", "s0n1", "s0n2", "s1n0", "s1n1", "s1n2");
        assertThat(Hostlist.expand("gpu[1-2]-ib,mgmt")).containsExactly("gpu1-ib", "gpu2-ib", "mgmt");
        assertThat(Hostlist.expand("leaf0")).containsExactly("leaf0");
        assertThat(Hostlist.expand("n[1-1000]")).hasSize(1000).doesNotHaveDuplicates();
    }

    @Test
    void malformedListsSayWhatIsWrong() {
        for (String[] c : List.of(new String[] {"n[1-4", "'[' without ']'"}, new String[] {"n1-4]", "']' without '['"},
                new String[] {"n[a-b]", "expected numbers and ranges"}, new String[] {"n[4-1]", "runs backwards"},
                new String[] {"a,,b", "empty name"}, new String[] {"n[]", "expected numbers"})) {
            assertThatThrownBy(() -> Hostlist.expand(c[0])).as(c[0]).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(c[1]);
        }
    }
}
