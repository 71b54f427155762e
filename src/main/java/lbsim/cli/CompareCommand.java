package lbsim.cli;

import picocli.CommandLine.Command;

@Command(name = "compare")
public final class CompareCommand implements Runnable {
    @Override
    public void run() {
        throw new UnsupportedOperationException("compare: being built");
    }
}
