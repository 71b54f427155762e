/**
 * Deployable plans: pure functions from a few fabric and job parameters to artefacts an engineer
 * takes to a real cluster (DNLB source ports and leaf ACL/PBR configuration, ParaLet's QP count,
 * McClure et al.'s subflow count and Appendix A capacity check). No simulation-engine dependency.
 * Every plan renders itself deterministically as text, JSON or CSV ({@link lbsim.plan.PlanFormat}).
 * See docs/plan.md.
 */
package lbsim.plan;
