package dev.consistentcut.bench.scale;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** scale.md: the tables of a sweep's summary and the two ratios against their bounds. Stateless. */
public final class ScaleReport {

    private ScaleReport() {
    }

    /**
     * @param header lines about the run (machine, load, options), each a paragraph of its own
     */
    public static String markdown(ScaleSummary s, List<String> header) {
        List<String> out = new ArrayList<>();
        out.add("# Scale benchmark: time per record, bytes per checkpoint and checkpoint duration against records");
        out.add("");
        header.forEach(h -> {
            out.add(h);
            out.add("");
        });
        out.add("Each cell: the median over the repeats, in brackets the least and greatest repeat. Time per record ="
                + " the run's wall time (a fresh JVM, start to exit) / (2 sources x records); CPU per record the same for its"
                + " CPU time (user + system of all its threads), which the machine's other work moves less. Bytes = what the last"
                + " retained checkpoint wrote: its private file plus the shared files it uploaded (inspect --json); beside it the"
                + " median of that over the retained checkpoints (the store keeps 3), since a checkpoint that compacts a"
                + " chain writes the chain's whole state.");
        out.add("");
        out.add("## Without a sink delay (`--sink-delay-us 0`: the engine's own cost)");
        out.add("");
        table(out, s.series(Point.NO_DELAY));
        out.add("## Default options (sink delay 50 us per record)");
        out.add("");
        table(out, s.series(Point.DEFAULT_DELAY));
        out.add("## Ratios 160,000 / 20,000 records per source (default options)");
        out.add("");
        out.add("Ratio of the medians; in brackets the least and greatest ratio of any two repeats. Within the bound"
                + " only if the greatest is; above it only if the least is; otherwise undecided.");
        out.add("");
        out.add("| ratio | 160k / 20k | bound | verdict |");
        out.add("| --- | ---: | ---: | --- |");
        ratio(out, "wall time", s.wallRatio(), ScaleSummary.WALL_RATIO_BOUND);
        ratio(out, "CPU time (user + system)", s.cpuRatio(), ScaleSummary.WALL_RATIO_BOUND);
        ratio(out, "bytes the last checkpoint wrote", s.bytesRatio(), ScaleSummary.BYTES_RATIO_BOUND);
        ratio(out, "bytes the retained checkpoints wrote, median", s.retainedBytesRatio(), ScaleSummary.BYTES_RATIO_BOUND);
        return String.join("\n", out) + "\n";
    }

    /** "within" if even the greatest ratio is at most the bound, "above" if even the least exceeds it, else "undecided". */
    static String verdict(Spread ratio, double bound) {
        if (ratio.max() <= bound) {
            return "within";
        }
        return ratio.min() > bound ? "above" : "undecided";
    }

    private static void table(List<String> out, List<ScaleSummary.Group> groups) {
        out.add("| records per source | runs | wall (s) | time per record (us) | relative to the first row | CPU per record (us) | checkpoints"
                + " | checkpoint duration median (ms) | max (ms) | last checkpoint wrote (bytes) | retained checkpoints wrote, median (bytes) |");
        out.add("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (ScaleSummary.Group g : groups) {
            out.add(String.format(Locale.ROOT, "| %,d | %d | %s | %s | %.2f | %s | %s | %s | %s | %s | %s |", g.point().records(),
                    g.wallMs().n(), seconds(g.wallMs()).format("%.1f"), g.timePerRecordUs().format("%.2f"),
                    g.relativeTimePerRecord(), g.cpuPerRecordUs().format("%.2f"), g.checkpoints().format("%.0f"), g.durationMedianMs().format("%.2f"),
                    g.durationMaxMs().format("%.1f"), g.lastBytes().format("%,.0f"), g.retainedMedianBytes().format("%,.0f")));
        }
        out.add("");
    }

    private static Spread seconds(Spread ms) {
        return new Spread(ms.median() / 1000, ms.min() / 1000, ms.max() / 1000, ms.n());
    }

    private static void ratio(List<String> out, String what, Optional<Spread> ratio, double bound) {
        out.add(ratio.map(r -> String.format(Locale.ROOT, "| %s | %s | %.0f | %s |", what, r.format("%.2f"), bound, verdict(r, bound)))
                .orElse("| " + what + " | not measured | " + (int) bound + " | - |"));
    }
}
