package lbsim.workload.chakra;

/** A Chakra trace that does not decode: the message names the file, the record index and what was expected. */
public final class TraceFormatException extends Exception {
    public TraceFormatException(String message) {
        super(message);
    }

    public TraceFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
