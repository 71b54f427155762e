package lbsim.workload.training;

/**
 * Compute time of the pieces of one micro-batch on one GPU, from FLOP counts (Megatron-LM,
 * Narayanan et al. SC'21, §5.1: a matrix of p parameters costs 2 p FLOPs per token forward,
 * backward twice the forward; attention scores and values add 4 b s^2 h per layer forward),
 * divided by the tensor-parallel degree, at an effective rate of gpuFlops FLOP/s.
 */
public record ComputeModel(ModelConfig model, int microBatch, int tp, double gpuFlops) {

    public ComputeModel {
        if (microBatch < 1 || tp < 1 || !(gpuFlops > 0)) throw new IllegalArgumentException("microBatch, tp >= 1 and gpuFlops > 0 required");
    }

    private double tokens() {
        return (double) microBatch * model.seqLen();
    }

    public double attentionForwardFlops() {
        double h = model.hidden();
        return (2 * tokens() * model.attentionParamsPerLayer() + 4 * tokens() * model.seqLen() * h) / tp;
    }

    public double mlpForwardFlops() {
        return 2 * tokens() * model.activeMlpParamsPerLayer() / tp;
    }

    public double logitsForwardFlops() {
        return 2 * tokens() * model.hidden() * (double) model.vocab() / tp;
    }

    public long attentionForwardPs() {
        return ps(attentionForwardFlops());
    }

    public long mlpForwardPs() {
        return ps(mlpForwardFlops());
    }

    public long logitsForwardPs() {
        return ps(logitsForwardFlops());
    }

    public long attentionBackwardPs() {
        return ps(2 * attentionForwardFlops());
    }

    public long mlpBackwardPs() {
        return ps(2 * mlpForwardFlops());
    }

    public long logitsBackwardPs() {
        return ps(2 * logitsForwardFlops());
    }

    private long ps(double flops) {
        return Math.round(flops / gpuFlops * 1e12);
    }
}
