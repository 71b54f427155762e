package lbsim.plan;

/**
 * One row of a DNLB plan: the UDP source port of one QP of one NIC and the uplink its leaf's PBR
 * sends it to (CTCCL paper 003, §3.2 Eq. 3).
 *
 * @param leaf     leaf switch, 0-based
 * @param nic      NIC number, 0-based, leaf by leaf ({@code leaf * nicsPerLeaf + j})
 * @param nicIndex Eq. 3's {@code index}: the host part of the NIC's IP address if given, else {@code nic}
 * @param ip       the NIC's IP address as given, or {@code null}
 * @param qp       QP index within the connection, 0-based ({@code 0 <= qp < nqp})
 * @param sport    UDP source port, in [0xC000, 0xFFFF]
 * @param uplink   uplink (Eq. 2's {@code n}, 0-based) whose port range contains {@code sport}
 */
public record QpAssignment(int leaf, int nic, long nicIndex, String ip, int qp, int sport, int uplink) {
}
