package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JmhCsvTest {

    @TempDir
    Path dir;

    @Test
    void readsJmhsCsvWithItsParameters() throws IOException {
        Path f = dir.resolve("micro.csv");
        Files.writeString(f, """
                "Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)","Unit","Param: capacity","Param: handler"
                "dev.consistentcut.bench.micro.ChannelHandOffBenchmark.handOff","thrpt",2,5,0.831,0.052,"ops/us",16,
                "dev.consistentcut.bench.micro.BarrierHandlerBenchmark.processRecord","avgt",1,5,215.8,NaN,"ns/op",,aligned
                """);
        List<Report.MicroResult> r = JmhCsv.read(f);
        assertEquals(2, r.size());
        assertEquals(new Report.MicroResult("ChannelHandOffBenchmark.handOff", "capacity=16", 0.831, 0.052, "ops/us"), r.get(0));
        assertEquals("handler=aligned", r.get(1).params());
        assertTrue(Double.isNaN(r.get(1).error()));
    }

    @Test
    void aMalformedLineIsReportedWithFileAndLine() throws IOException {
        Path f = dir.resolve("bad.csv");
        Files.writeString(f, """
                "Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)","Unit"
                "x.Y.z","avgt",1,5,fast,0.1,"ns/op"
                """);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JmhCsv.read(f));
        assertTrue(e.getMessage().contains("bad.csv line 2") && e.getMessage().contains("score is not a number"), e.getMessage());
    }

    @Test
    void aFileThatIsNotJmhsCsvIsRejectedByName() throws IOException {
        Path f = dir.resolve("other.csv");
        Files.writeString(f, "a,b,c\n1,2,3\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JmhCsv.read(f));
        assertTrue(e.getMessage().contains("no column 'Benchmark'"), e.getMessage());
    }
}
