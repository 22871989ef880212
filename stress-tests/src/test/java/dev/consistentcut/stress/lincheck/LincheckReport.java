package dev.consistentcut.stress.lincheck;

import org.jetbrains.lincheck.LincheckAssertionError;

/** Prints what lincheck found in a deliberately broken twin, so that the test log shows the catch. */
final class LincheckReport {

    private LincheckReport() {
    }

    static void print(String twin, LincheckAssertionError e) {
        String[] lines = String.valueOf(e.getMessage()).split("\n");
        System.out.println("lincheck rejected the " + twin + " as expected:");
        for (int i = 0; i < Math.min(lines.length, 40); i++) {
            System.out.println("  " + lines[i]);
        }
        if (lines.length > 40) {
            System.out.println("  ... (" + (lines.length - 40) + " more lines)");
        }
    }
}
