package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The models to check: every models.tsv under the spec directory (one for all specs, or one per
 * protocol family's folder), read in sorted path order, or the one manifest MODEL_CHECK_MANIFEST
 * names. Columns, tab-separated: name, module, config, expect, tier, description, and optionally
 * the pinned distinct states and depth. Immutable after {@link #read}.
 */
final class Manifest {

    static final String FILE_NAME = "models.tsv";
    private static final Pattern SHARED = Pattern.compile("=([A-Za-z0-9_]+)");
    private static final Pattern EXPECT = Pattern.compile("pass|deadlock|inv:.+|prop:.+");
    private static final Pattern TIER = Pattern.compile("quick|full|simulate|long");

    /** In the manifests' order. */
    final Map<String, Model> models;
    /** The manifest files read. */
    final List<Path> files;

    private Manifest(Map<String, Model> models, List<Path> files) {
        this.models = models;
        this.files = files;
    }

    /**
     * Reads the manifests of {@code setup}.
     *
     * @throws SetupException a missing manifest, file or malformed row
     * @throws UsageException a bad expect or tier
     */
    static Manifest read(Setup setup) {
        List<Path> files = files(setup);
        Set<String> modules = modules(setup.specDir());
        Map<String, Model> models = new LinkedHashMap<>();
        for (Path file : files) {
            // A row's files are in the folder of its manifest; a manifest outside the spec
            // directory (MODEL_CHECK_MANIFEST, a copy) names files of the spec directory.
            Path folder = file.toAbsolutePath().normalize().getParent().startsWith(setup.specDir())
                    ? file.toAbsolutePath().normalize().getParent() : setup.specDir();
            List<String> lines;
            try {
                lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new SetupException(file + ": cannot be read: " + e.getMessage());
            }
            for (int n = 1; n <= lines.size(); n++) {
                String line = lines.get(n - 1);
                if (line.isBlank() || line.stripLeading().startsWith("#")) {
                    continue;
                }
                Model m = row(setup, file, n, line, folder, modules);
                if (models.containsKey(m.name())) {
                    throw new SetupException(file + ":" + n + ": model '" + m.name() + "' listed twice");
                }
                models.put(m.name(), m);
            }
        }
        if (models.isEmpty()) {
            throw new SetupException(String.join(", ", files.stream().map(Path::toString).toList()) + " lists no model");
        }
        return new Manifest(models, files);
    }

    /** The names of every module under the spec directory. */
    private static Set<String> modules(Path specDir) {
        Set<String> names = new HashSet<>();
        if (Files.isDirectory(specDir)) {
            try (Stream<Path> s = Files.walk(specDir)) {
                s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tla"))
                        .forEach(n -> names.add(n.substring(0, n.length() - ".tla".length())));
            } catch (IOException e) {
                throw new SetupException(specDir + ": cannot be read: " + e.getMessage());
            }
        }
        return names;
    }

    private static List<Path> files(Setup setup) {
        if (setup.manifest() != null) {
            if (!Files.isRegularFile(setup.manifest())) {
                throw new SetupException("no manifest at " + setup.manifest());
            }
            return List.of(setup.manifest());
        }
        List<Path> found = new ArrayList<>();
        if (Files.isDirectory(setup.specDir())) {
            try (Stream<Path> s = Files.walk(setup.specDir())) {
                s.filter(p -> p.getFileName().toString().equals(FILE_NAME) && Files.isRegularFile(p)).sorted()
                        .forEach(found::add);
            } catch (IOException e) {
                throw new SetupException(setup.specDir() + ": cannot be read: " + e.getMessage());
            }
        }
        if (found.isEmpty()) {
            throw new SetupException("no manifest at " + setup.specDir().resolve(FILE_NAME));
        }
        return found;
    }

    /**
     * One row. Tabs separate the columns and, as bash's read did, a run of tabs is one separator:
     * column 8 after a shared pin ('=BASE') is simply left off or empty.
     */
    private static Model row(Setup setup, Path file, int n, String line, Path folder, Set<String> modules) {
        List<String> cols = new ArrayList<>();
        for (String c : line.split("\t")) {
            if (!c.isEmpty()) {
                cols.add(c);
            }
        }
        String where = file + ":" + n;
        if (cols.size() < 5) {
            throw new SetupException(where + ": expected 6 tab-separated columns (name module config expect tier description)");
        }
        String name = cols.get(0);
        String module = cols.get(1);
        String config = cols.get(2);
        String expect = cols.get(3);
        String tier = cols.get(4);
        String desc = cols.size() > 5 ? cols.get(5) : "";
        String states = cols.size() > 6 ? cols.get(6) : "";
        String depth = cols.size() > 7 ? cols.get(7) : "";
        if (!EXPECT.matcher(expect).matches()) {
            throw new UsageException(where + ": bad expect '" + expect + "' (pass, inv:Name, prop:Name or deadlock)");
        }
        if (!TIER.matcher(tier).matches()) {
            throw new UsageException(where + ": bad tier '" + tier + "' (quick, full, simulate or long)");
        }
        // The module may be in another folder (a sink model of the aligned protocol's MC module):
        // TLC finds it through the spec root's module path (TlcCommand).
        if (!Files.isRegularFile(folder.resolve(module + ".tla")) && !modules.contains(module)) {
            throw new SetupException(where + ": model '" + name + "': no " + shown(setup, folder.resolve(module + ".tla")));
        }
        if (!Files.isRegularFile(folder.resolve(config))) {
            throw new SetupException(where + ": model '" + name + "': no " + shown(setup, folder.resolve(config)));
        }
        // Columns 7 and 8 (optional): the pinned distinct states and depth; empty = not pinned yet.
        // Column 7 '=BASE' (column 8 empty): the model checks BASE's state space with other
        // properties and shares BASE's pin (SharedPins), so that the two pins cannot drift apart.
        String pinOf = null;
        Matcher shared = SHARED.matcher(states);
        if (shared.matches()) {
            if (!depth.isEmpty()) {
                throw new SetupException(where + ": model '" + name + "': a shared pin (" + states + ") leaves column 8 empty");
            }
            pinOf = shared.group(1);
            states = "";
        }
        if (!states.matches("[0-9]*") || !depth.matches("[0-9]*")) {
            throw new SetupException(where + ": model '" + name
                    + "': pinned states/depth (columns 7, 8) must be numbers, '=MODEL' or empty");
        }
        return new Model(name, module, config, expect, tier, desc, file, n, folder, number(states), number(depth), pinOf);
    }

    /** As the messages of the single spec/ folder said: spec/NAME.tla, relative to the spec directory's parent. */
    private static String shown(Setup setup, Path p) {
        Path base = setup.specDir().getParent();
        return base == null ? p.toString() : base.relativize(p.toAbsolutePath().normalize()).toString();
    }

    private static Long number(String s) {
        return s.isEmpty() ? null : Long.parseLong(s);
    }

    /** Where the manifest of the messages is: its one file, or the spec directory's manifests. */
    String describe() {
        return files.size() == 1 ? files.get(0).toString() : String.join(", ", files.stream().map(Path::toString).toList());
    }
}
