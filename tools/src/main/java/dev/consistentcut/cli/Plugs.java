package dev.consistentcut.cli;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.sink.FileSinkDirectory;
import dev.consistentcut.sink.SinkDirectory;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * What the command line builds a job from that a test may replace: the barrier mode a
 * {@code --mode} name stands for ({@code modes} throws {@link IllegalArgumentException} for an
 * unknown name), and the directory the file job's sink writes {@code --output} through
 * ({@code outputs}, which may throw {@link dev.consistentcut.sink.SinkIoException}). Tests plug in
 * a broken handler or a directory whose disk is full; {@link #REAL} is what the command line uses.
 * Immutable; the functions are called from the command's thread.
 */
record Plugs(Function<String, BarrierMode> modes, Function<Path, SinkDirectory> outputs) {

    static final Plugs REAL = new Plugs(BarrierHandlers::byName, FileSinkDirectory::new);
}
