package lbsim.experiment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import lbsim.BadInputException;

/**
 * Reads a YAML input file (scenario, sweep, topology) as text, with a message that says what is wrong when it
 * cannot: no such file, a folder, no permission, too large, not UTF-8, empty. The size limit keeps a huge file
 * from loading for minutes: {@value #DEFAULT_MAX_MB} MB unless the environment variable {@value #ENV} sets
 * another number of MB (1 to 2000).
 */
public final class YamlInput {
    public static final String ENV = "LBSIM_MAX_YAML_MB";
    public static final int DEFAULT_MAX_MB = 3;

    private YamlInput() {}

    /** The text of {@code file}, a {@code what} ("scenario file", "sweep file", ...). */
    public static String read(Path file, String what) {
        if (!Files.exists(file)) throw new BadInputException(file + ": no such " + what);
        if (Files.isDirectory(file)) throw new BadInputException(file + ": is a folder, not a " + what);
        byte[] bytes;
        try {
            long size = Files.size(file);
            long max = maxBytes();
            if (size > max) {
                throw new BadInputException(file + ": the " + what + " is " + size + " bytes, more than the " + max / (1 << 20)
                        + " MB a YAML input may have; set " + ENV + " to allow more");
            }
            bytes = Files.readAllBytes(file);
        } catch (AccessDeniedException e) {
            throw new BadInputException(file + ": cannot read the " + what + ": permission denied");
        } catch (NoSuchFileException e) {
            throw new BadInputException(file + ": no such " + what);
        } catch (IOException e) {
            throw new BadInputException(file + ": cannot read the " + what + " (" + e.getMessage() + ")");
        }
        String text = decode(file, what, bytes);
        if (text.isBlank()) throw new BadInputException(file + ": the " + what + " is empty");
        return text;
    }

    /** The size limit in bytes: {@value #ENV} MB, default {@value #DEFAULT_MAX_MB}. */
    public static long maxBytes() {
        String v = System.getenv(ENV);
        if (v == null || v.isBlank()) return (long) DEFAULT_MAX_MB << 20;
        try {
            int mb = Integer.parseInt(v.trim());
            if (mb >= 1 && mb <= 2000) return (long) mb << 20;
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new BadInputException("environment variable " + ENV + "='" + v + "': must be a whole number of MB from 1 to 2000");
    }

    /** Checks text given directly (not from a file) against the same limit. */
    static void checkSize(String source, String text) {
        long max = maxBytes();
        if (text.length() > max) {
            throw new BadInputException(source + ": " + text.length() + " characters, more than the " + max / (1 << 20)
                    + " MB a YAML input may have; set " + ENV + " to allow more");
        }
    }

    private static String decode(Path file, String what, byte[] bytes) {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            return d.decode(ByteBuffer.wrap(bytes)).toString();
        } catch (MalformedInputException e) {
            int at = firstBad(bytes);
            int line = 1;
            for (int i = 0; i < at; i++) if (bytes[i] == '\n') line++;
            throw new BadInputException(file + ": line " + line + ": the " + what + " is not UTF-8 text (byte 0x"
                    + String.format("%02X", bytes[at] & 0xFF) + " at offset " + at + "); save it as UTF-8");
        } catch (CharacterCodingException e) {
            throw new BadInputException(file + ": the " + what + " is not UTF-8 text; save it as UTF-8");
        }
    }

    /** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
    private static int firstBad(byte[] b) {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(b);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(b.length + 1);
        var r = d.decode(in, out, true);
        return r.isError() ? in.position() : 0;
    }
}
