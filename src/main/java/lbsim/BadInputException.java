package lbsim;

/**
 * Invalid user input: a file, key or value. The CLI prints the message and exits with code 2.
 * Messages name the file, the key and the allowed values.
 */
public final class BadInputException extends RuntimeException {
    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
