package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * --distributed: one TLCServer here and one TLCWorker per entry of --workers-hosts; the server
 * holds the queue and the fingerprints, the workers compute successors over RMI. Distributed TLC
 * 2.18 exits 0 whatever it finds and prints a counterexample without naming the invariant or
 * property, so the verdict is "pass" or "error-found". Runs on the calling thread.
 */
final class Distributed {

    private static final Pattern READY = Pattern.compile("TLC server at .* is ready");
    private static final Pattern DISTINCT = Pattern.compile("([0-9,]+) distinct states found");
    private static final Pattern DEPTH = Pattern.compile("depth of the complete state graph search is ([0-9]+)");

    private Distributed() {
    }

    static Result run(Model m, Options o, Setup setup, String java, Path tlcJar, PrintStream out)
            throws IOException, InterruptedException {
        Path dir = setup.outDir().resolve("distributed").resolve(m.name());
        ModelRun.deleteTree(dir);
        Files.createDirectories(dir);
        Path serverLog = dir.resolve("server.log");
        long start = Instant.now().getEpochSecond();
        Process server = Children.start(TlcCommand.of(java, tlcJar).jvm("-XX:+UseParallelGC").specRoot(setup.specDir())
                .jvm("-Djava.rmi.server.hostname=" + o.serverHost, "-Dtlc2.tool.distributed.TLCServer.port=" + o.rmiPort)
                .main(TlcCommand.SERVER).metadir(dir.resolve("meta")).config(m.config()).module(m.module())
                .processBuilder(m.folder()).redirectErrorStream(true).redirectOutput(serverLog.toFile()));
        for (int waited = 0; !READY.matcher(Files.readString(serverLog, StandardCharsets.ISO_8859_1)).find();
             waited++) {
            if (!server.isAlive()) {
                break;
            }
            if (waited >= 600) {
                server.destroy();
                throw new UsageException("TLCServer not ready after 60 s: " + serverLog);
            }
            Thread.sleep(100);
        }
        String[] hosts = o.workerHosts.split(",");
        List<Process> workers = new ArrayList<>();
        for (int i = 0; i < hosts.length; i++) {
            String host = hosts[i];
            List<String> cmd = TlcCommand.of(java, tlcJar)
                    .jvm("-Djava.rmi.server.hostname=" + host, "-Dtlc2.tool.distributed.TLCServer.port=" + o.rmiPort)
                    .main(TlcCommand.WORKER).option(o.serverHost).toList();
            if (!List.of("127.0.0.1", "localhost", "::1").contains(host)) {
                // Started with ssh: the same JAVA and jar paths must exist there.
                cmd = List.of("ssh", "-o", "BatchMode=yes", host, String.join(" ", cmd.stream().map(Distributed::quote).toList()));
            }
            workers.add(Children.start(new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("worker" + (i + 1) + ".log").toFile())));
        }
        out.println("      server pid " + server.pid() + " on " + o.serverHost + ":" + o.rmiPort + ", " + hosts.length
                + " workers (" + o.workerHosts + "), logs: " + setup.shown(dir) + "/");
        int exit = Children.waitFor(server);
        workers.forEach(Children::waitFor);
        long seconds = Instant.now().getEpochSecond() - start;
        List<String> log = TlcLog.lines(serverLog);
        String states = TlcLog.last(log, DISTINCT);
        String depth = TlcLog.last(log, DEPTH);
        String result;
        if (exit != 0) {
            result = "error:exit-" + exit;
        } else if (log.stream().anyMatch(l -> l.contains("Model checking completed. No error has been found"))) {
            result = "pass";
        } else if (log.stream().anyMatch(l -> l.matches("^Error: (The behavior up to this point is|Deadlock reached).*"))) {
            result = "error-found";
        } else {
            result = "error:no-verdict";
        }
        boolean ok = m.expect().equals("pass") ? result.equals("pass") : result.equals("error-found");
        Files.createDirectories(setup.outDir().resolve("logs"));
        Files.copy(serverLog, setup.outDir().resolve("logs/" + m.name() + ".log"), StandardCopyOption.REPLACE_EXISTING);
        return new Result(exit, result, states == null ? "-" : states, depth == null ? "-" : depth, seconds, ok, null, null);
    }

    /** A word for the remote shell, quoted as printf %q would. */
    private static String quote(String s) {
        return s.matches("[A-Za-z0-9_./:=,+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}
