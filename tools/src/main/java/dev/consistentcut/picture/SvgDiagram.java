package dev.consistentcut.picture;

import dev.consistentcut.picture.Diagram.Kind;
import dev.consistentcut.picture.Diagram.Row;
import dev.consistentcut.picture.Diagram.Token;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws a {@link Diagram} as a self-contained SVG file (no fonts, scripts or libraries needed):
 * lanes left to right, steps top to bottom, each channel as a pipe whose messages move right
 * towards the receiving task (the message read next is the rightmost). Plain Java on purpose: the
 * picture must come out on any machine with a JDK, in CI too, without Graphviz or a Maven
 * dependency. Stateless; safe to use from any thread.
 */
public final class SvgDiagram {

    private static final int MARGIN = 16;
    private static final int NUM_W = 44;
    private static final int STEP_W = 230;
    private static final int NOTES_W = 470;
    private static final int TOKEN_W = 40;
    private static final int BARRIER_W = 24;
    private static final int TOKEN_H = 18;
    private static final int LINE_H = 15;
    private static final int NOTE_CHARS = 70;

    private SvgDiagram() {
    }

    /** Writes {@code d} to {@code file} (parent directories created). */
    public static void write(Diagram d, Path file) {
        try {
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            Files.writeString(file, render(d), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write picture " + file + ": " + e.getMessage(), e);
        }
    }

    /** The SVG text of {@code d}. */
    public static String render(Diagram d) {
        int lanes = d.lanes().size();
        int[] laneW = new int[lanes];
        for (int l = 0; l < lanes; l++) {
            int w = Math.max(130, d.lanes().get(l).length() * 7 + 20);
            for (Row r : d.rows()) {
                w = Math.max(w, width(r.cells().get(l)) + 30);
                w = Math.max(w, width(r.persisted().get(l)) + 30);
            }
            laneW[l] = w;
        }
        int lanesW = 0;
        for (int w : laneW) {
            lanesW += w;
        }
        int tableW = NUM_W + STEP_W + lanesW + NOTES_W;
        int totalW = tableW + 2 * MARGIN;

        StringBuilder body = new StringBuilder();
        int y = MARGIN + 20;
        text(body, MARGIN, y, d.title(), 18, "bold", "#111");
        List<String> sub = wrap(d.subtitle(), (totalW - 2 * MARGIN) / 7);
        for (String s : sub) {
            y += 18;
            text(body, MARGIN, y, s, 13, "normal", "#333");
        }
        y += 16;

        // header
        int headerH = 30;
        rect(body, MARGIN, y, tableW, headerH, "#e5e7eb", "none", 0);
        int x = MARGIN;
        text(body, x + 6, y + 19, "#", 12, "bold", "#111");
        x += NUM_W;
        text(body, x + 6, y + 19, "step (task)", 12, "bold", "#111");
        x += STEP_W;
        for (int l = 0; l < lanes; l++) {
            text(body, x + 8, y + 19, d.lanes().get(l), 12, "bold", "#111");
            line(body, x, y, x, y + headerH, "#9ca3af", 1);
            x += laneW[l];
        }
        line(body, x, y, x, y + headerH, "#9ca3af", 1);
        text(body, x + 6, y + 19, "what else changed", 12, "bold", "#111");
        y += headerH;

        int i = 0;
        for (Row r : d.rows()) {
            List<String> notes = new ArrayList<>();
            for (String n : r.notes()) {
                notes.addAll(wrap(n, NOTE_CHARS));
            }
            boolean anyPersisted = r.persisted().stream().anyMatch(p -> !p.isEmpty());
            int h = Math.max(anyPersisted ? 56 : 34, notes.size() * LINE_H + 12);
            rect(body, MARGIN, y, tableW, h, background(r.kind(), i++), "none", 0);
            if (r.kind() == Kind.UNEXPLAINED || r.kind() == Kind.VIOLATION) {
                rect(body, MARGIN + 1, y + 1, tableW - 2, h - 2, "none", "#b91c1c", 2);
            }
            line(body, MARGIN, y + h, MARGIN + tableW, y + h, "#e5e7eb", 1);
            int cy = y + (anyPersisted ? 20 : h / 2);
            x = MARGIN;
            text(body, x + 6, cy + 4, r.number(), 11, "normal", "#555");
            x += NUM_W;
            body.append(String.format(Locale.ROOT, "<text x='%d' y='%d' font-size='12' font-weight='bold' fill='%s'>%s"
                    + "<tspan font-size='11' font-weight='normal' fill='#374151'>%s</tspan></text>%n", x + 6, cy + 4,
                    color(r.kind()), escape(r.action()), r.actor().isEmpty() ? "" : escape(" (" + r.actor() + ")")));
            x += STEP_W;
            for (int l = 0; l < lanes; l++) {
                int w = laneW[l];
                if (r.blocked().get(l)) {
                    rect(body, x + 2, y + 2, w - 4, h - 4, "url(#hatch)", "none", 0);
                }
                boolean changed = r.changed().get(l);
                line(body, x + 8, cy, x + w - 12, cy, changed ? "#111827" : "#c7cbd1", changed ? 2 : 1);
                body.append(String.format(Locale.ROOT,
                        "<path d='M%d %d l-7 -4 v8 z' fill='%s'/>%n", x + w - 6, cy, changed ? "#111827" : "#c7cbd1"));
                List<Token> tokens = r.cells().get(l);
                int tx = x + w - 14 - width(tokens);
                for (Token t : tokens) {
                    tx += token(body, tx, cy, t, false) + 4;
                }
                List<Token> saved = r.persisted().get(l);
                if (!saved.isEmpty()) {
                    int px = x + 8;
                    text(body, px, cy + 27, "saved", 10, "bold", "#92400e");
                    px += 34;
                    for (Token t : saved) {
                        px += token(body, px, cy + 23, t, true) + 4;
                    }
                }
                line(body, x, y, x, y + h, "#e5e7eb", 1);
                x += w;
            }
            line(body, x, y, x, y + h, "#e5e7eb", 1);
            int ny = y + 17;
            for (String n : notes) {
                text(body, x + 6, ny, n, 11, "normal", "#1f2937");
                ny += LINE_H;
            }
            y += h;
        }

        // verdict
        if (!d.verdict().isEmpty()) {
            y += 12;
            List<String> lines = new ArrayList<>();
            for (String v : d.verdict()) {
                lines.addAll(wrap(v, (tableW - 24) / 7));
            }
            int h = lines.size() * 18 + 14;
            rect(body, MARGIN, y, tableW, h, "#fef2f2", "#b91c1c", 2);
            int vy = y + 22;
            boolean first = true;
            for (String v : lines) {
                text(body, MARGIN + 12, vy, v, first ? 14 : 13, first ? "bold" : "normal", "#7f1d1d");
                first = false;
                vy += 18;
            }
            y += h;
        }

        // legend
        y += 26;
        x = MARGIN;
        x += token(body, x, y, new Token("s1.0", false), false) + 6;
        x = textW(body, x, y + 4, "a record (source s1, offset 0)");
        x += token(body, x, y, new Token("B1", true), false) + 6;
        x = textW(body, x, y + 4, "barrier of checkpoint 1; messages move right, the rightmost is read next");
        rect(body, x, y - 9, 26, 18, "url(#hatch)", "#9ca3af", 1);
        x = textW(body, x + 32, y + 4, "barrier arrived on this input (an aligned task blocks it)");
        y += 24;
        x = MARGIN;
        x += token(body, x, y, new Token("s1.0", false), true) + 6;
        x = textW(body, x, y + 4, "persisted as channel state");
        x = legendRow(body, x, y, Kind.TRIGGER, "trigger");
        x = legendRow(body, x, y, Kind.SNAPSHOT, "snapshot");
        x = legendRow(body, x, y, Kind.COMPLETE, "completed checkpoint");
        x = legendRow(body, x, y, Kind.FAIL, "failure and restore");
        legendRow(body, x, y, Kind.VIOLATION, "the violating / unexplained step");
        y += 20;

        int totalH = y + MARGIN;
        return String.format(Locale.ROOT, "<?xml version='1.0' encoding='UTF-8'?>%n"
                + "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' viewBox='0 0 %d %d' "
                + "font-family='DejaVu Sans, Verdana, Arial, sans-serif'>%n"
                + "<defs><pattern id='hatch' width='8' height='8' patternUnits='userSpaceOnUse' patternTransform='rotate(45)'>"
                + "<rect width='8' height='8' fill='#f3f4f6'/><line x1='0' y1='0' x2='0' y2='8' stroke='#9ca3af' stroke-width='3'/>"
                + "</pattern></defs>%n<rect width='100%%' height='100%%' fill='white'/>%n%s</svg>%n",
                totalW, totalH, totalW, totalH, body);
    }

    private static int legendRow(StringBuilder b, int x, int y, Kind k, String label) {
        rect(b, x, y - 9, 26, 18, background(k, 0), k == Kind.VIOLATION ? "#b91c1c" : "#9ca3af", 1);
        return textW(b, x + 32, y + 4, label);
    }

    private static int textW(StringBuilder b, int x, int y, String s) {
        text(b, x, y, s, 11, "normal", "#374151");
        return x + (int) (s.length() * 6.2) + 18;
    }

    private static int width(List<Token> tokens) {
        int w = 0;
        for (Token t : tokens) {
            w += tokenW(t) + 4;
        }
        return w;
    }

    private static int tokenW(Token t) {
        return t.barrier() ? Math.max(BARRIER_W, t.label().length() * 7 + 6) : Math.max(TOKEN_W, t.label().length() * 7 + 8);
    }

    /** Draws a token centred vertically on {@code cy}; returns its width. */
    private static int token(StringBuilder b, int x, int cy, Token t, boolean persisted) {
        int w = tokenW(t);
        String fill = t.barrier() ? "#dc2626" : persisted ? "#fde68a" : "#dbeafe";
        String stroke = t.barrier() ? "#991b1b" : persisted ? "#b45309" : "#2563eb";
        b.append(String.format(Locale.ROOT,
                "<rect x='%d' y='%d' width='%d' height='%d' rx='%d' fill='%s' stroke='%s' stroke-width='1.2'/>%n",
                x, cy - TOKEN_H / 2, w, TOKEN_H, t.barrier() ? 2 : 8, fill, stroke));
        text(b, x + w / 2, cy + 4, t.label(), 10, "bold", t.barrier() ? "white" : "#1e3a8a", "middle");
        return w;
    }

    private static String background(Kind k, int i) {
        return switch (k) {
            case STEP -> i % 2 == 0 ? "#ffffff" : "#fafafa";
            case TRIGGER -> "#e0f2fe";
            case SNAPSHOT -> "#fef9c3";
            case COMPLETE -> "#dcfce7";
            case FAIL -> "#fee2e2";
            case VIOLATION, UNEXPLAINED -> "#fecaca";
        };
    }

    private static String color(Kind k) {
        return switch (k) {
            case FAIL, VIOLATION, UNEXPLAINED -> "#991b1b";
            case COMPLETE -> "#166534";
            case TRIGGER -> "#075985";
            default -> "#111827";
        };
    }

    private static void rect(StringBuilder b, int x, int y, int w, int h, String fill, String stroke, int sw) {
        b.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='%d' height='%d' fill='%s' stroke='%s' stroke-width='%d'/>%n",
                x, y, w, h, fill, stroke, sw));
    }

    private static void line(StringBuilder b, int x1, int y1, int x2, int y2, String stroke, int sw) {
        b.append(String.format(Locale.ROOT, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='%s' stroke-width='%d'/>%n",
                x1, y1, x2, y2, stroke, sw));
    }

    private static void text(StringBuilder b, int x, int y, String s, int size, String weight, String fill) {
        text(b, x, y, s, size, weight, fill, "start");
    }

    private static void text(StringBuilder b, int x, int y, String s, int size, String weight, String fill, String anchor) {
        b.append(String.format(Locale.ROOT, "<text x='%d' y='%d' font-size='%d' font-weight='%s' fill='%s' text-anchor='%s'>%s</text>%n",
                x, y, size, weight, fill, anchor, escape(s)));
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&apos;");
    }

    /** Splits {@code s} into lines of at most {@code width} characters, at spaces where possible. */
    static List<String> wrap(String s, int width) {
        List<String> out = new ArrayList<>();
        if (s == null || s.isEmpty()) {
            return out;
        }
        String rest = s;
        while (rest.length() > width) {
            int cut = rest.lastIndexOf(' ', width);
            if (cut <= width / 3) {
                cut = width;
            }
            out.add(rest.substring(0, cut).stripTrailing());
            rest = rest.substring(cut).stripLeading();
        }
        out.add(rest);
        return out;
    }
}
