package dev.consistentcut.modelcheck;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where the runner works: the repository root, the spec directory, the manifest (when one is
 * named), the output directory and the environment variables it reads (JAVA, JAVA_HOME,
 * TLA2TOOLS_JAR, ENGINE_TOOLS_JAR, MODEL_CHECK_TLC_VERSION, PATH). Immutable.
 *
 * @param manifest MODEL_CHECK_MANIFEST, or null: every models.tsv under the spec directory
 */
record Setup(Path root, Path specDir, Path manifest, Path outDir, Map<String, String> env) {

    /** MODEL_CHECK_SPEC_DIR, MODEL_CHECK_MANIFEST and MODEL_CHECK_OUT_DIR point the runner at other models (its tests do). */
    static Setup of(Path root, Map<String, String> env) {
        Path spec = path(env.get("MODEL_CHECK_SPEC_DIR"), root.resolve("spec"));
        Path manifest = path(env.get("MODEL_CHECK_MANIFEST"), null);
        Path out = path(env.get("MODEL_CHECK_OUT_DIR"), root.resolve("target/model-check"));
        return new Setup(root, spec, manifest, out, Map.copyOf(env));
    }

    private static Path path(String value, Path otherwise) {
        return value == null || value.isEmpty() ? otherwise : Path.of(value).toAbsolutePath().normalize();
    }

    String env(String name) {
        String v = env.get(name);
        return v == null || v.isEmpty() ? null : v;
    }

    /** A path as the messages show it: relative to the root when under it. */
    String shown(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        return abs.startsWith(root) && !abs.equals(root) ? root.relativize(abs).toString() : abs.toString();
    }

    /** The java that runs TLC: JAVA, else $JAVA_HOME/bin/java, else java on PATH, else this JVM's. */
    String java() {
        String java = env("JAVA");
        if (java != null) {
            if (java.contains(File.separator) && !Files.isExecutable(Path.of(java))) {
                throw new SetupException("JAVA=" + java + ": no such executable");
            }
            if (!java.contains(File.separator) && onPath(java) == null) {
                throw new SetupException("JAVA=" + java + ": not found on PATH");
            }
            return java;
        }
        String home = env("JAVA_HOME");
        if (home != null && Files.isExecutable(Path.of(home, "bin", "java"))) {
            return Path.of(home, "bin", "java").toString();
        }
        return onPath("java") != null ? "java" : TlcCommand.thisJava();
    }

    /** The executable's full path (command -v), or null. */
    Path onPath(String name) {
        if (name.contains(File.separator)) {
            return Path.of(name);
        }
        String path = env("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                return p;
            }
        }
        return null;
    }

    /** The engine tools' jar: the trace converter and validator, the picture renderer. */
    Path toolsJar() {
        String jar = env("ENGINE_TOOLS_JAR");
        return jar != null ? Path.of(jar) : root.resolve("tools/target/tools.jar");
    }
}
