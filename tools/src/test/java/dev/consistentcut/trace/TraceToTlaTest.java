package dev.consistentcut.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceToTlaTest {

    static final String HEADER = "{\"trace\":\"consistent-cut-trace\",\"version\":1,\"mode\":\"unaligned\","
            + "\"sources\":[\"s#0\"],\"operators\":[\"k#0\"],\"edges\":[[\"s#0\",\"k#0\"]],\"records\":[[\"s#0\",1]],"
            + "\"capacity\":1,\"maxConcurrent\":1,\"routes\":[[[\"s#0\",\"s#0\"],[[[\"s#0\",\"k#0\"]]]]]}";

    @Test
    void convertsLiterallyObjectsToRecordsArraysToTuples() {
        TraceToTla.Converted c = TraceToTla.convert("t.ndjson", List.of(HEADER,
                "{\"event\":\"EmitRecord\",\"task\":\"s#0\",\"record\":{\"src\":\"s#0\",\"off\":0},\"offset\":1,"
                        + "\"channels\":[[[\"s#0\",\"k#0\"],[{\"src\":\"s#0\",\"off\":0}]]]}",
                "{\"event\":\"TriggerCheckpoint\",\"checkpoint\":1,\"flag\":true}"));
        assertEquals("unaligned", c.mode());
        assertEquals(2, c.eventLines().size());
        assertTrue(c.module().startsWith("------------------------------ MODULE TraceData "), c.module());
        assertTrue(c.module().contains("[event |-> \"EmitRecord\", task |-> \"s#0\", record |-> [src |-> \"s#0\", off |-> 0], "
                + "offset |-> 1, channels |-> <<<<<<\"s#0\", \"k#0\">>, <<[src |-> \"s#0\", off |-> 0]>>>>>>]"), c.module());
        assertTrue(c.module().contains("[event |-> \"TriggerCheckpoint\", checkpoint |-> 1, flag |-> TRUE]"), c.module());
        assertTrue(c.module().contains("routes |-> <<<<<<\"s#0\", \"s#0\">>, <<<<<<\"s#0\", \"k#0\">>>>>>>>>>"), c.module());
        assertTrue(c.module().stripTrailing().endsWith("===="), c.module());
    }

    @Test
    void aTraceOfOnlyTheHeaderIsTheEmptySequence() {
        TraceToTla.Converted c = TraceToTla.convert("t.ndjson", List.of(HEADER));
        assertTrue(c.module().contains("Trace == <<>>"), c.module());
    }

    @Test
    void escapesQuotesAndBackslashesInStrings() {
        TraceToTla.Converted c = TraceToTla.convert("t", List.of(HEADER, "{\"event\":\"a\\\"b\\\\c\"}"));
        assertTrue(c.module().contains("[event |-> \"a\\\"b\\\\c\"]"), c.module());
    }

    @Test
    void badTracesAreRejectedNamingFileLineAndProblem() {
        assertRejected(List.of(), "t: empty file");
        assertRejected(List.of("{\"trace\":\"other\"}"), "t:1: not a trace header");
        assertRejected(List.of(HEADER.replace("\"version\":1", "\"version\":2")), "t:1: trace version 2");
        assertRejected(List.of(HEADER.replace("\"capacity\":1,", "")), "t:1: the header lacks field \"capacity\"");
        assertRejected(List.of(HEADER.replace("\"unaligned\"", "\"sideways\"")), "t:1: mode sideways");
        assertRejected(List.of(HEADER, "{\"event\":\"EmitRecord\"}", "{\"event\":"), "t:3: not JSON: column 10");
        assertRejected(List.of(HEADER, ""), "t:2: empty line");
        assertRejected(List.of(HEADER, "[1]"), "t:2: an event is an object with a string field \"event\"");
        assertRejected(List.of(HEADER, "{\"event\":\"x\",\"off\":-1}"), "t:2: negative number -1");
        assertRejected(List.of(HEADER, "{\"event\":\"x\",\"task-id\":1}"), "t:2: field \"task-id\" cannot be a TLA+ record field");
        assertRejected(List.of(HEADER, "{\"event\":\"x\",\"CASE\":1}"), "field \"CASE\" cannot be");
        assertRejected(List.of(HEADER, "{\"event\":\"x\",\"m\":{}}"), "t:2: an empty object has no TLA+ record form");
        assertRejected(List.of(HEADER, "{\"event\":\"x\",\"m\":null}"), "t:2: null has no TLA+ form");
        assertRejected(List.of(HEADER, "{\"event\":\"caf\u00e9\"}"), "t:2: string \"caf\u00e9\" has a character");
    }

    private static void assertRejected(List<String> lines, String part) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TraceToTla.convert("t", new ArrayList<>(lines)));
        assertTrue(e.getMessage().contains(part), "message '" + e.getMessage() + "' should contain '" + part + "'");
    }
}
