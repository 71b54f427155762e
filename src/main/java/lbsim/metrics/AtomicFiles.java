package lbsim.metrics;

import java.io.BufferedWriter;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Durable result files: the text goes to a temporary file in the target's folder, is flushed and
 * fsynced, then moved into place atomically (replacing when the file system cannot move
 * atomically). A reader, or a crash, sees the old file or the whole new one, never a part.
 * Temporary files end in {@code .tmp}; a crash may leave one behind, never a target.
 */
public final class AtomicFiles {
    /** Writes a file's text; closing the writer it is given only flushes. */
    public interface Body {
        void write(Writer w) throws IOException;
    }

    private AtomicFiles() {}

    public static void writeString(Path file, String text) throws IOException {
        write(file, w -> w.write(text));
    }

    /** Writes {@code file} through a temporary file in its folder, fsynced, then moved into place. */
    public static void write(Path file, Body body) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = tempBeside(file);
        boolean moved = false;
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                    Writer w = new BufferedWriter(Channels.newWriter(ch, StandardCharsets.UTF_8))) {
                body.write(new FilterWriter(w) {
                    @Override
                    public void close() throws IOException {
                        flush();
                    }
                });
                w.flush();
                ch.force(true);
            }
            move(tmp, file);
            moved = true;
        } finally {
            if (!moved) Files.deleteIfExists(tmp);
        }
        syncFolder(dir);
    }

    /** Copies {@code source} into place as {@link #write} does. */
    public static void copy(Path source, Path file) throws IOException {
        Path tmp = tempBeside(file);
        boolean moved = false;
        try {
            Files.copy(source, tmp, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            move(tmp, file);
            moved = true;
        } finally {
            if (!moved) Files.deleteIfExists(tmp);
        }
    }

    private static final java.util.concurrent.atomic.AtomicLong TEMP_COUNTER = new java.util.concurrent.atomic.AtomicLong();

    /**
     * A new empty temporary file beside {@code file}, created with the default permissions (the
     * umask's, as the result files had before), not the owner-only ones of Files.createTempFile:
     * results on shared storage stay readable by the others who could read them before.
     */
    private static Path tempBeside(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        String prefix = "." + file.getFileName() + "." + ProcessHandle.current().pid() + ".";
        while (true) {
            try {
                return Files.createFile(dir.resolve(prefix + TEMP_COUNTER.incrementAndGet() + ".tmp"));
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // another writer took the name: try the next
            }
        }
    }

    private static void move(Path tmp, Path file) throws IOException {
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Makes the rename itself durable where the platform can fsync a folder (Linux); elsewhere a no-op. */
    private static void syncFolder(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | RuntimeException e) {
            // not supported (e.g. Windows): the file itself is durable
        }
    }
}
