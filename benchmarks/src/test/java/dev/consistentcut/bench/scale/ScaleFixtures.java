package dev.consistentcut.bench.scale;

import java.util.List;

/** Canned CLI output in the shapes the scale sweep reads. */
final class ScaleFixtures {

    private ScaleFixtures() {
    }

    static String runOutput(int records, List<Double> durations, String verdict) {
        StringBuilder b = new StringBuilder(String.format(java.util.Locale.ROOT,
                "mode unaligned, runtime threads, %d records per source, %d checkpoints completed, 0 aborted, 0 failure(s), 490.11 ms%n",
                records, durations.size()));
        for (int i = 0; i < durations.size(); i++) {
            b.append(String.format(java.util.Locale.ROOT,
                    "checkpoint %4d  duration %10.2f ms  alignment %10.2f ms  persisted %6d records %9d bytes  state %9d bytes%n",
                    i + 1, durations.get(i), 5.77, 225, 7334, 144));
        }
        b.append("ConsistentCutInv: holds\nExactlyOnceInv: holds\n");
        b.append("verdict: ").append(verdict).append('\n');
        return b.toString();
    }

    /** Two retained checkpoints, 1 and 2; checkpoint 2 references one of 1's shared files. */
    static final String INSPECT = """
            {"directory":"/tmp/d","finished":true,"checkpoints":[
             {"id":2,"file":"chk-2.ckpt","bytes":7435,"valid":true,"problem":null,"sharedFiles":[
               {"file":"shared-1-count%230.seg","bytes":89,"references":2},
               {"file":"shared-2-count%231.seg","bytes":124093,"references":1},
               {"file":"shared-2-sink%230.seg","bytes":615352,"references":1}]},
             {"id":1,"file":"chk-1.ckpt","bytes":7851,"valid":true,"problem":null,"sharedFiles":[
               {"file":"shared-1-count%230.seg","bytes":89,"references":2}]}],
             "temporaryFiles":[],"warnings":[],"resumeFrom":2}
            """;
}
