package lbsim.cli;

import picocli.CommandLine.Command;

@Command(name = "bench")
public final class BenchCommand implements Runnable {
    @Override
    public void run() {
        throw new UnsupportedOperationException("bench: being built");
    }
}
