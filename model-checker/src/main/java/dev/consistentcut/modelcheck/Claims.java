package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * --claims: which quick models check each invariant and property, read from the configs alone (no
 * TLC): per protocol family (a manifest's folder), every claim its models' configs name, with the
 * quick models and the other models that check it, and every invariant its MC modules declare
 * (they or the modules they EXTEND) that some quick model of the family does not check, with those
 * models (properties are left out there: a liveness property needs the model's fairness). Prints the
 * table and writes claims.tsv (family, kind, name, quick models, other models). Runs on the
 * calling thread.
 */
final class Claims {

    static final String TSV_HEADER = "family\tkind\tname\tquick_models\tother_models";

    private Claims() {
    }

    /** The family of a model: its manifest's folder. */
    static String family(Model m) {
        Path folder = m.manifest().toAbsolutePath().getParent();
        return folder.getFileName() == null ? "" : folder.getFileName().toString();
    }

    static int print(Map<String, Model> models, Setup setup, PrintStream out) throws IOException {
        SpecSources sources = SpecSources.of(setup.specDir());
        // family -> claim -> [quick models, other models]
        Map<String, Map<CfgClaims.Claim, List<Set<String>>>> table = new TreeMap<>();
        Map<String, Set<String>> mcModules = new TreeMap<>();
        Map<String, Set<String>> quickModels = new TreeMap<>();
        for (Model m : models.values()) {
            String family = family(m);
            Map<CfgClaims.Claim, List<Set<String>>> rows = table.computeIfAbsent(family, f -> new TreeMap<>(
                    java.util.Comparator.comparing(CfgClaims.Claim::kind).thenComparing(CfgClaims.Claim::name)));
            for (CfgClaims.Claim c : CfgClaims.ofConfig(m.configFile())) {
                List<Set<String>> by = rows.computeIfAbsent(c, k -> List.of(new LinkedHashSet<>(), new LinkedHashSet<>()));
                by.get(m.tier().equals("quick") ? 0 : 1).add(m.name());
            }
            if (m.tier().equals("quick")) {
                quickModels.computeIfAbsent(family, f -> new LinkedHashSet<>()).add(m.name());
            }
            Set<String> mc = mcModules.computeIfAbsent(family, f -> new LinkedHashSet<>());
            if (m.module().startsWith("MC") && m.folder().equals(m.manifest().toAbsolutePath().getParent())
                    && Files.isRegularFile(m.folder().resolve(m.module() + ".tla"))) {
                mc.add(m.module());
            }
        }
        StringBuilder tsv = new StringBuilder(TSV_HEADER).append('\n');
        out.println(String.format("%-14s %-5s %-36s %s", "FAMILY", "KIND", "CLAIM", "QUICK MODELS (other models)"));
        List<String> unchecked = new ArrayList<>();
        for (var f : table.entrySet()) {
            Set<CfgClaims.Claim> declared = new LinkedHashSet<>();
            mcModules.get(f.getKey()).forEach(mc -> declared.addAll(CfgClaims.declared(mc, sources)));
            for (CfgClaims.Claim c : declared) {
                f.getValue().computeIfAbsent(c, k -> List.of(new LinkedHashSet<>(), new LinkedHashSet<>()));
            }
            for (var row : f.getValue().entrySet()) {
                Set<String> quick = row.getValue().get(0);
                Set<String> other = row.getValue().get(1);
                out.println(String.format("%-14s %-5s %-36s %s%s", f.getKey(), row.getKey().kind(), row.getKey().name(),
                        quick.isEmpty() ? "-" : String.join(", ", quick), other.isEmpty() ? "" : " (" + String.join(", ", other) + ")"));
                tsv.append(String.join("\t", f.getKey(), row.getKey().kind(), row.getKey().name(), String.join(",", quick),
                        String.join(",", other))).append('\n');
                Set<String> all = quickModels.getOrDefault(f.getKey(), Set.of());
                if (row.getKey().kind().equals("inv") && declared.contains(row.getKey()) && !all.isEmpty() && !quick.containsAll(all)) {
                    List<String> not = all.stream().filter(q -> !quick.contains(q)).toList();
                    unchecked.add(String.format("%-14s %-36s ", f.getKey(), row.getKey().name()) + (quick.isEmpty()
                            ? "none of its " + all.size() + " quick models checks it"
                            : not.size() + " of its " + all.size() + " quick models do not: " + String.join(", ", not)));
                }
            }
        }
        Path file = setup.outDir().resolve("claims.tsv");
        Files.createDirectories(file.getParent());
        Files.writeString(file, tsv, StandardCharsets.UTF_8);
        out.println();
        out.println("Invariants declared in a family's MC modules (or the modules they extend) that a quick model of the family "
                + "does not check: " + (unchecked.isEmpty() ? "none" : unchecked.size()));
        unchecked.forEach(u -> out.println("  " + u));
        out.println("Table: " + setup.shown(file));
        return 0;
    }
}
