package dev.consistentcut.picture;

import dev.consistentcut.text.TlaValue;
import dev.consistentcut.text.TlaValue.Num;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The numbers that violate an invariant in the last state of a counterexample, computed by TLC
 * itself from the spec's own operators (so the picture and the spec cannot disagree): a one-state
 * model whose initial state is that state evaluates, e.g. for NoDoubleCountInv, every
 * {@code <<c, t, r, CutCount(c, t, r), CutTarget(c, t, r)>>} with {@code CutCount > CutTarget}.
 * Invariants without a known witness get none (the picture then quotes the invariant only).
 */
public final class TlcWitness {

    private static final long TIMEOUT_SECONDS = 120;

    /** The witness expression per invariant, over a completed checkpoint c, operator t, record r. */
    private static final Map<String, String> WITNESS = Map.of(
            "NoDoubleCountInv", "{w \\in {<<c, t, r, CutCount(c, t, r), CutTarget(c, t, r)>> : "
                    + "c \\in {x \\in CheckpointIds : ckpt[x] = \"completed\"}, t \\in Operators, r \\in Records} : w[4] > w[5]}",
            "NoSkipInv", "{w \\in {<<c, t, r, CutCount(c, t, r), CutTarget(c, t, r)>> : "
                    + "c \\in {x \\in CheckpointIds : ckpt[x] = \"completed\"}, t \\in Operators, r \\in Records} : w[4] < w[5]}",
            "ExactlyOnceInv", "{w \\in {<<t, r, CopiesIn(r, processed[t]), Paths(r.src, r, t)>> : "
                    + "t \\in Operators, r \\in Records} : w[3] # w[4]}",
            "AtLeastOnceInv", "{w \\in {<<t, r, CopiesIn(r, processed[t]), Paths(r.src, r, t)>> : "
                    + "t \\in Operators, r \\in Records} : w[3] < w[4]}");

    private TlcWitness() {
    }

    /** Whether {@link #lines} knows numbers for {@code invariant}. */
    public static boolean knows(String invariant) {
        return WITNESS.containsKey(invariant);
    }

    /**
     * The violating numbers in {@code last}, one line each (at most 6), or empty if TLC could not
     * compute them (the reason is then the only line, starting with "(").
     */
    public static List<String> lines(String invariant, TlcTrace.State last, Path specDir, String module, Path config,
                                     Path tlcJar, String java) {
        String expr = WITNESS.get(invariant);
        if (expr == null) {
            return List.of();
        }
        Path dir = null;
        try {
            dir = Files.createTempDirectory("picture-witness");
            StringBuilder init = new StringBuilder();
            for (String l : last.text().split("\n")) {
                init.append("    ").append(l).append('\n');
            }
            Files.writeString(dir.resolve("PictureWitness.tla"), "---- MODULE PictureWitness ----\n"
                    + "EXTENDS " + module + ", TLC\n"
                    + "WitnessInit ==\n" + init
                    + "WitnessNext == UNCHANGED <<" + String.join(", ", last.vars().keySet()) + ">>\n"
                    + "WitnessShow == PrintT(<<\"PICTURE-WITNESS\", " + expr + ">>)\n"
                    + "====\n", StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("PictureWitness.cfg"), constants(Files.readAllLines(config))
                    + "INIT WitnessInit\nNEXT WitnessNext\nINVARIANT WitnessShow\nCHECK_DEADLOCK FALSE\n", StandardCharsets.UTF_8);
            Process p = new ProcessBuilder(java, "-DTLA-Library=" + SpecTree.libraryPath(specDir), "-cp", tlcJar.toAbsolutePath().toString(),
                    "tlc2.TLC", "-workers", "1", "-metadir", dir.resolve("meta").toString(), "-config", "PictureWitness.cfg",
                    "PictureWitness.tla")
                    .directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return List.of("(TLC did not compute the numbers within " + TIMEOUT_SECONDS + " s)");
            }
            // PrintT's output may span lines; it ends where TLC's next message starts.
            int tag = out.indexOf("\"PICTURE-WITNESS\"");
            int at = tag < 0 ? -1 : out.lastIndexOf("<<", tag);
            int end = at < 0 ? -1 : out.indexOf("\nFinished computing initial states", at);
            if (at < 0 || end < 0) {
                if (System.getenv("PICTURE_DEBUG") != null) {
                    System.err.println(out);
                }
                return List.of("(TLC did not compute the numbers; set PICTURE_DEBUG=1 to see its output)");
            }
            String value = out.substring(at, end);
            TlaValue set = TlaValue.parse(value).get(new Num(2));
            return describe(invariant, set);
        } catch (IOException e) {
            return List.of("(could not run TLC for the numbers: " + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of("(interrupted)");
        } finally {
            if (System.getenv("PICTURE_DEBUG") == null) {
                delete(dir);
            }
        }
    }

    private static List<String> describe(String invariant, TlaValue set) {
        List<String> out = new ArrayList<>();
        List<TlaValue> items = ((TlaValue.SetOf) set).items();
        for (TlaValue w : items.subList(0, Math.min(6, items.size()))) {
            List<TlaValue> x = ((TlaValue.Tuple) w).items();
            if (invariant.equals("NoDoubleCountInv") || invariant.equals("NoSkipInv")) {
                out.add(String.format("checkpoint %s, operator %s, record %s: CutCount = %s %s CutTarget = %s", Compact.of(x.get(0)),
                        Compact.of(x.get(1)), Compact.of(x.get(2)), Compact.of(x.get(3)),
                        invariant.equals("NoSkipInv") ? "<" : ">", Compact.of(x.get(4))));
            } else {
                out.add(String.format("operator %s, record %s: processed %s times, routes to it (Paths) = %s", Compact.of(x.get(0)),
                        Compact.of(x.get(1)), Compact.of(x.get(2)), Compact.of(x.get(3))));
            }
        }
        if (items.size() > 6) {
            out.add("... and " + (items.size() - 6) + " more");
        }
        return out;
    }

    /** The CONSTANT sections of a TLC config (what the one-state model must keep). */
    static String constants(List<String> cfg) {
        StringBuilder b = new StringBuilder();
        boolean keep = false;
        for (String raw : cfg) {
            String l = raw.replaceAll("\\\\\\*.*", "");
            String word = l.strip().split("\\s+")[0];
            if (word.matches("[A-Z_]+") && !l.startsWith(" ") && !l.startsWith("\t")) {
                keep = word.equals("CONSTANT") || word.equals("CONSTANTS");
            }
            if (keep) {
                b.append(l).append('\n');
            }
        }
        return b.toString();
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
