package dev.consistentcut.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void parsesEveryKindOfValueAndKeepsKeyOrder() {
        Object v = Json.parse("{\"b\": [1, -2, true, false, null], \"a\": {\"s\": \"x\\\"y\\\\z\\u0041\"}}");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("b", java.util.Arrays.asList(1L, -2L, true, false, null));
        expected.put("a", Map.of("s", "x\"y\\zA"));
        assertEquals(expected, v);
        assertEquals(List.of("b", "a"), List.copyOf(((Map<?, ?>) v).keySet()));
        assertEquals(List.of(), Json.parse("[]"));
        assertEquals(Map.of(), Json.parse(" { } "));
    }

    @Test
    void quotedStringsParseBackToThemselves() {
        for (String s : List.of("", "plain", "count#1", "q\"uote", "back\\slash", "tab\tnew\nline\u0001")) {
            assertEquals(s, Json.parse(Json.quote(new StringBuilder(), s).toString()));
        }
    }

    @Test
    void badInputIsRejectedNamingTheColumnAndWhatWasExpected() {
        assertMessage("{\"a\" 1}", "column 6: expected ':'");
        assertMessage("[1, 2", "column 6: expected ']'");
        assertMessage("{\"a\":1.5}", "column 7: expected an integer");
        assertMessage("{\"a\":1,\"a\":2}", "column 8: expected no second key \"a\"");
        assertMessage("[1] x", "column 5: expected end of input");
        assertMessage("\"open", "expected a closing quote");
        assertMessage("nul", "column 1: expected a value");
        assertMessage("99999999999999999999", "expected an integer within 64 bits");
    }

    private static void assertMessage(String input, String part) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse(input));
        assertTrue(e.getMessage().contains(part), "message '" + e.getMessage() + "' should contain '" + part + "'");
    }
}
