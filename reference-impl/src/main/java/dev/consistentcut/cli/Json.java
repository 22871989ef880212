package dev.consistentcut.cli;

/** The little JSON the CLI writes, by hand: no library for one document. */
final class Json {

    private Json() {
    }

    /** {@code s} as a JSON string literal, or {@code null}. */
    static String str(Object s) {
        if (s == null) {
            return "null";
        }
        String text = s.toString();
        StringBuilder b = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
