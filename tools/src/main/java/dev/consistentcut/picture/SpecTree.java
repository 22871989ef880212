package dev.consistentcut.picture;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The modules of a spec directory, which holds them in one folder per protocol family
 * (spec/core, spec/aligned, ...): a module is found by its name wherever it is, as TLC finds
 * it through its library path. Stateless; safe from any thread.
 */
public final class SpecTree {

    private SpecTree() {
    }

    /** Every module ({@code .tla} file) under {@code specDir}, in sorted path order. */
    public static List<Path> modules(Path specDir) {
        try (Stream<Path> files = Files.walk(specDir)) {
            return files.filter(p -> p.toString().endsWith(".tla") && Files.isRegularFile(p)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the modules under " + specDir, e);
        }
    }

    /** TLC's {@code -DTLA-Library} value: every folder under {@code specDir} holding a module. */
    public static String libraryPath(Path specDir) {
        return modules(specDir).stream().map(p -> p.getParent().toAbsolutePath().toString()).distinct()
                .collect(Collectors.joining(File.pathSeparator));
    }
}
