package dev.consistentcut.conformance;

import dev.consistentcut.trace.TraceValidator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The TLC side of the judgement: the project's {@link TraceValidator} on a Flink trace, which the
 * trace's {@code "runtime":"flink"} sends to {@code TraceFlink<Mode>.tla}. While no such module is
 * under the spec directory, {@link #available(String)} says so and the harness judges from the
 * Java side alone (and says that it did).
 */
final class TlcJudge {

    private final Path specDir;
    private final Path logDir;

    TlcJudge(Path specDir, Path logDir) {
        this.specDir = specDir.toAbsolutePath().normalize();
        // absolute: TLC runs in a directory of its own, and its private tmp dir is under this one
        this.logDir = logDir.toAbsolutePath().normalize();
    }

    /** The Flink trace module of {@code mode}, e.g. {@code TraceFlinkAligned}. */
    static String module(String mode) {
        return switch (mode) {
            case "aligned" -> "TraceFlinkAligned";
            case "unaligned" -> "TraceFlinkUnaligned";
            case "at-least-once" -> "TraceFlinkAtLeastOnce";
            default -> "TraceFlinkAlternating";
        };
    }

    /** Whether the spec directory holds the Flink trace module of {@code mode}. */
    boolean available(String mode) {
        String file = module(mode) + ".tla";
        if (!Files.isDirectory(specDir)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(specDir)) {
            return files.anyMatch(f -> f.getFileName().toString().equals(file));
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** TLC's verdict on {@code trace} (the caller checked {@link #available}). */
    TraceValidator.Verdict validate(Path trace) throws Exception {
        Path tlcJar = Path.of(tlc2.TLC.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return new TraceValidator(specDir, tlcJar, logDir).requireEnd(true).validate(trace);
    }
}
