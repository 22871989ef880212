package dev.consistentcut.modelcheck;

/**
 * What one TLC run of a model gave. Immutable.
 *
 * @param exit TLC's exit code
 * @param result pass, deadlock, inv:NAME, prop:NAME, error:...
 * @param states distinct states (states checked, for a simulation), or "-"
 * @param depth the depth, or "-"
 * @param ok the result is what the manifest says
 * @param picture the picture's path, or null
 * @param pictureNote why there is no picture, or null
 */
record Result(int exit, String result, String states, String depth, long seconds, boolean ok, String picture,
              String pictureNote) {

    Result withOk(boolean on) {
        return new Result(exit, result, states, depth, seconds, on, picture, pictureNote);
    }

    Result withPicture(String path, String note) {
        return new Result(exit, result, states, depth, seconds, ok, path, note);
    }

    /** A model whose run left no result (its thread failed). */
    static Result none() {
        return new Result(3, "error:no-result", "-", "-", 0, false, null, null);
    }
}
