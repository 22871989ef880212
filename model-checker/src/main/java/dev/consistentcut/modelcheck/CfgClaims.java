package dev.consistentcut.modelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a TLC config claims, and what a module declares: the names under a config's
 * INVARIANT(S) and PROPERTY(IES), and the invariants ({@code ...Inv ==}) and properties
 * ({@code ...Prop ==}) a module defines, it or the modules it EXTENDS. Read as text, without TLC.
 * Stateless.
 */
final class CfgClaims {

    /** A claim: "inv" or "prop", and the name. */
    record Claim(String kind, String name) {
    }

    private static final Set<String> KEYWORDS = Set.of("CONSTANT", "CONSTANTS", "INIT", "NEXT", "SPECIFICATION", "INVARIANT",
            "INVARIANTS", "PROPERTY", "PROPERTIES", "SYMMETRY", "VIEW", "CHECK_DEADLOCK", "CONSTRAINT", "CONSTRAINTS",
            "ACTION_CONSTRAINT", "ACTION_CONSTRAINTS", "ALIAS", "POSTCONDITION");
    private static final Pattern DEFINITION = Pattern.compile("^([A-Za-z0-9_]+(Inv|Prop))\\s*==");
    private static final Pattern EXTENDS = Pattern.compile("^EXTENDS\\s+(.*)$");

    private CfgClaims() {
    }

    /** The invariants and properties a config names, in order. */
    static List<Claim> ofConfig(Path cfg) {
        StringBuilder text = new StringBuilder();
        for (String l : TlcLog.lines(cfg)) {
            int comment = l.indexOf("\\*");
            text.append(comment < 0 ? l : l.substring(0, comment)).append('\n');
        }
        String plain = text.toString().replaceAll("(?s)\\(\\*.*?\\*\\)", " ");
        List<Claim> claims = new ArrayList<>();
        String kind = null;
        for (String token : plain.split("\\s+")) {
            if (token.isEmpty()) {
                continue;
            }
            if (KEYWORDS.contains(token)) {
                kind = token.startsWith("INVARIANT") ? "inv" : token.startsWith("PROPERT") ? "prop" : null;
            } else if (kind != null && token.matches("[A-Za-z0-9_]+")) {
                claims.add(new Claim(kind, token));
            }
        }
        return claims;
    }

    /** The invariants and properties the module and the modules it EXTENDS (under the spec directory) define. */
    static Set<Claim> declared(String module, SpecSources sources) {
        Set<Claim> found = new LinkedHashSet<>();
        declared(module, sources, new LinkedHashSet<>(), found);
        return found;
    }

    private static void declared(String module, SpecSources sources, Set<String> seen, Set<Claim> found) {
        Path file = sources.file(module);
        if (file == null || !seen.add(module)) {
            return;
        }
        for (String l : TlcLog.lines(file)) {
            Matcher d = DEFINITION.matcher(l);
            if (d.find()) {
                found.add(new Claim(d.group(2).equals("Inv") ? "inv" : "prop", d.group(1)));
            }
            Matcher e = EXTENDS.matcher(l);
            if (e.find()) {
                for (String m : e.group(1).split("[,\\s]+")) {
                    declared(m, sources, seen, found);
                }
            }
        }
    }
}
