package lbsim.cli;

import picocli.CommandLine.Command;

@Command(name = "run")
public final class RunCommand implements Runnable {
    @Override
    public void run() {
        throw new UnsupportedOperationException("run: being built");
    }
}
