package lbsim.experiment;

import lbsim.BadInputException;
import lbsim.workload.training.ModelConfig;
import lbsim.workload.training.Parallelism;
import lbsim.workload.training.TrainingPresets;
import lbsim.workload.training.TrainingSpec;

/**
 * The scenario keys of a current model's training iteration (docs/models.md): tensor, pipeline
 * and expert parallel degrees (data parallel takes the remaining ranks), micro-batch size and
 * count, sequence length and sequence parallelism, with the model's defaults.
 */
record ModelShape(String model, String file, int tp, int pp, int ep, int microBatch, int microBatches, int seqLen,
                  boolean sequenceParallel) {

    static ModelShape read(Section s, String model) {
        TrainingPresets.Defaults d = TrainingPresets.defaults(model);
        int tp = s.intValue("tp", d.tp(), 1, 1 << 16);
        int pp = s.intValue("pp", d.pp(), 1, 1 << 16);
        int ep = s.intValue("ep", d.ep(), 1, 1 << 16);
        int micro = s.intValue("micro_batch", 1, 1, 1 << 16);
        int count = s.intValue("micro_batches", pp, 1, 1 << 16);
        int seq = s.intValue("seq_len", d.seqLen(), 1, 1 << 24);
        boolean sp = s.bool("sequence_parallel", false);
        if (ep > 1 && !TrainingPresets.model(model, seq).isMixtureOfExperts()) {
            throw s.error("ep", ep + ": " + model + " is a dense model (no experts); ep must be 1");
        }
        if (ep > 1 && TrainingPresets.model(model, seq).experts() % ep != 0) {
            throw s.error("ep", ep + " does not divide the " + TrainingPresets.model(model, seq).experts() + " experts of " + model);
        }
        return new ModelShape(model, s.file(), tp, pp, ep, micro, count, seq, sp);
    }

    /** The iteration on {@code rankToHost.length} ranks: dp = ranks / (tp x pp). */
    TrainingSpec spec(int[] rankToHost, String algorithm) {
        int ranks = rankToHost.length;
        if (ranks % (tp * pp) != 0) {
            throw new BadInputException(file + ": workload.ranks: " + ranks + " ranks are not a multiple of tp x pp = " + tp * pp
                    + " (tp " + tp + ", pp " + pp + "); set workload.ranks or the parallel degrees");
        }
        int dp = ranks / (tp * pp);
        if (dp % ep != 0) {
            throw new BadInputException(file + ": workload.ep: " + ep + " does not divide the data-parallel degree " + dp
                    + " (ranks " + ranks + " / (tp " + tp + " x pp " + pp + ")); expert parallelism groups ep data-parallel replicas");
        }
        ModelConfig m = TrainingPresets.model(model, seqLen);
        if (m.layers() < pp) throw new BadInputException(file + ": workload.pp: " + pp + " stages but " + model + " has " + m.layers() + " layers");
        return TrainingSpec.builder(m, new Parallelism(dp, tp, pp, ep), rankToHost).microBatch(microBatch)
                .globalBatch(dp * microBatch * microBatches).sequenceParallel(sequenceParallel).algorithm(algorithm).build();
    }
}
