package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The branches no model needs to reach, each with the reason no behaviour of any model can: the
 * rows of every coverage-exemptions.tsv under the spec directory (a protocol family's folder).
 * Columns, tab-separated: module (or Module!Action: the branch under that action only, as the
 * report names it, without its split or module suffix), the branch (its range L:C-L2:C2, or the
 * start of its source text, which survives edits above it), reason. Lines starting with '#' are
 * comments. Immutable.
 */
final class CoverageExemptions {

    static final String FILE_NAME = "coverage-exemptions.tsv";
    private static final Pattern RANGE = Pattern.compile("\\d+:\\d+-\\d+:\\d+");

    /** One row; {@code where} is the file and line, as messages show it. */
    record Exemption(String where, String module, String branch, String reason) {
        /** The module, without the action a Module!Action row names. */
        String moduleName() {
            int bang = module.indexOf('!');
            return bang < 0 ? module : module.substring(0, bang);
        }

        boolean matches(CoverageTally.Branch b) {
            int bang = module.indexOf('!');
            String mod = bang < 0 ? module : module.substring(0, bang);
            if (!b.module().equals(mod)) {
                return false;
            }
            if (bang >= 0) { // Module!Action: only under that action (its label may go on with a split or a module)
                String action = module.substring(bang + 1);
                if (!b.action().equals(action) && !b.action().startsWith(action + " ")) {
                    return false;
                }
            }
            return RANGE.matcher(branch).matches() ? b.location().equals(branch)
                    : b.text().startsWith(SpecSources.collapse(branch));
        }
    }

    private final List<Exemption> rows;

    CoverageExemptions(List<Exemption> rows) {
        this.rows = List.copyOf(rows);
    }

    List<Exemption> rows() {
        return rows;
    }

    /** The exemption that covers the branch, or null. */
    Exemption of(CoverageTally.Branch b) {
        return rows.stream().filter(e -> e.matches(b)).findFirst().orElse(null);
    }

    /**
     * Reads every exemption file under the spec directory, in path order.
     *
     * @throws SetupException a row without its three columns
     */
    static CoverageExemptions read(Setup setup) {
        List<Exemption> rows = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(setup.specDir())) {
            files = s.filter(p -> p.getFileName().toString().equals(FILE_NAME)).sorted().toList();
        } catch (IOException e) {
            throw new SetupException(setup.specDir() + ": cannot be read: " + e.getMessage());
        }
        for (Path f : files) {
            List<String> lines;
            try {
                lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new SetupException(setup.shown(f) + ": cannot be read: " + e.getMessage());
            }
            for (int n = 1; n <= lines.size(); n++) {
                String l = lines.get(n - 1);
                if (l.isBlank() || l.startsWith("#")) {
                    continue;
                }
                String[] c = l.split("\t", -1);
                String where = setup.shown(f) + ":" + n;
                if (c.length != 3 || c[0].isBlank() || c[1].isBlank() || c[2].isBlank()) {
                    throw new SetupException(where + ": an exemption has three tab-separated columns, module, branch "
                            + "(L:C-L2:C2 or the start of its text) and the reason no behaviour reaches it");
                }
                rows.add(new Exemption(where, c[0].trim(), c[1].trim(), c[2].trim()));
            }
        }
        return new CoverageExemptions(rows);
    }
}
