package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * DELIBERATELY BROKEN: the store's file operations, except that deleting a subsumed checkpoint's
 * private file {@code chk-<id>.ckpt} also deletes every shared file that checkpoint uploaded,
 * whatever references them still: a store that discards a checkpoint's own uploads without the
 * registry's counts (the bug FLINK-24611 fixed for aborts). {@code IncrementalStoreTest} shows it
 * caught. Never use it otherwise.
 *
 * <p><b>Threading contract.</b> As {@link StoreFiles}: called under the store's lock.
 */
final class SubsumedUploadsDeletingFiles extends ForwardingStoreFiles {

    @Override
    public void delete(Path file) throws IOException {
        REAL.delete(file);
        String name = file.getFileName().toString();
        if (name.startsWith("chk-") && name.endsWith(".ckpt")) {
            String uploads = "shared-" + name.substring(4, name.length() - 5) + "-";
            try (Stream<Path> files = Files.list(file.getParent())) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    if (p.getFileName().toString().startsWith(uploads)) {
                        REAL.delete(p);
                    }
                }
            }
        }
    }
}
