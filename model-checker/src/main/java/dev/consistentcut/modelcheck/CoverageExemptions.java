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
 * report names it, without its split or module suffix), the branch, reason. Lines starting with
 * '#' are comments. Immutable.
 *
 * <p>A row names its branch by the start of the branch's source text (whitespace runs count as
 * one space), which stays true through edits elsewhere in the module. It must be long enough to
 * name one branch: a row whose text starts two branches of its module (under its action) is
 * ambiguous and fails the run ({@link CoverageCheck}). A source range {@code L:C-L2:C2} in the
 * branch column is refused: a range moves with every line added or removed above the branch, so
 * spec text would have to be placed for a line number.
 */
final class CoverageExemptions {

    static final String FILE_NAME = "coverage-exemptions.tsv";
    /** A source range, as TLC's coverage and the report show it: refused as a branch. */
    private static final Pattern RANGE = Pattern.compile("\\d+:\\d+-\\d+:\\d+");

    /** One row; {@code where} is the file and line, as messages show it. */
    record Exemption(String where, String module, String branch, String reason) {
        /** The module, without the action a Module!Action row names. */
        String moduleName() {
            int bang = module.indexOf('!');
            return bang < 0 ? module : module.substring(0, bang);
        }

        /** Whether the branch is in the row's module (under its action) and its text starts with the row's. */
        boolean matches(CoverageTally.Branch b) {
            if (!b.module().equals(moduleName())) {
                return false;
            }
            int bang = module.indexOf('!');
            if (bang >= 0) { // Module!Action: only under that action (its label may go on with a split or a module)
                String action = module.substring(bang + 1);
                if (!b.action().equals(action) && !b.action().startsWith(action + " ")) {
                    return false;
                }
            }
            return b.text().startsWith(SpecSources.collapse(branch));
        }
    }

    private final List<Exemption> rows;

    CoverageExemptions(List<Exemption> rows) {
        this.rows = List.copyOf(rows);
    }

    List<Exemption> rows() {
        return rows;
    }

    /**
     * Reads every exemption file under the spec directory, in path order.
     *
     * @throws SetupException a row without its three columns, or one that names its branch by range
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
                            + "(the start of its source text) and the reason no behaviour reaches it");
                }
                if (RANGE.matcher(c[1].trim()).matches()) {
                    throw new SetupException(where + ": the branch '" + c[1].trim() + "' is a source range, which moves "
                            + "with every edit above it: name the branch by the start of its source text instead (the "
                            + "text the report's UNREACHED line shows after the range)");
                }
                rows.add(new Exemption(where, c[0].trim(), c[1].trim(), c[2].trim()));
            }
        }
        return new CoverageExemptions(rows);
    }
}
