#!/usr/bin/env python3
"""tests/trace-coverage.py GOOD_DIR: the lifecycle cases the correct engine's traces must contain.

tests/trace-validation.sh records its traces with fixed seeds chosen so that each case of the
checkpoint lifecycle (issue 9) shows in at least one of them; TLC accepting them says nothing about
a case no trace contains.  This names every case and the traces that have it, and exits 1 if one
has none (a changed engine can make a seed stop showing a case: choose another seed)."""
import glob
import json
import os
import sys


def tracks_two(tracked, ev):
    """At-least-once: updates tracked (task -> [the checkpoints whose barrier arrived there and that
    were neither snapshot nor dropped, the newest checkpoint the task finished or abandoned]) with
    event ev; true if ev is the first barrier of a checkpoint newer than one the task still tracks
    (AtLeastOnceTracking with two pending, which the spec's tracker follows since issue 9's last
    gap: AtLeastOnceCheckpoint.tla).  A barrier of a checkpoint the task neither tracks nor has
    seen anything newer than is the first of its checkpoint; any other untracked one is obsolete."""
    e, t, c, a = ev["event"], ev.get("task"), ev.get("checkpoint"), ev.get("abandoned", [])
    if e == "FailAndRestore":
        tracked.clear()
        return False
    if t is None:
        return False
    state = tracked.setdefault(t, [set(), 0])
    s = state[0]
    upto = max(a) if a else (c if "snapshot" in ev and e in ("ReceiveBarrier", "ReceiveEndOfPartition") else None)
    if upto is not None:
        state[0] = {d for d in s if d > upto}
        state[1] = max(state[1], upto)
        return False
    if e == "ReceiveBarrier" and c not in s and c > max(s | {state[1]}):
        s.add(c)
        return len(s) > 1
    return False


def cases(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    header = json.loads(lines[0])
    found = set()
    if header.get("mode") == "at-least-once":
        found.add("at-least-once mode")
    if header.get("endOfInput") and header.get("runtime") == "threads":
        found.add("threaded runtime with end of input")
    pending, last_injected, triggered, aborted = set(), {}, 0, set()
    tracked = {}  # at-least-once: per task, the checkpoints with a barrier arrived, not yet snapshot or dropped
    output, completed_since_failure, notified = 0, set(), set()  # the two-phase-commit sink (issue 12)
    for line in lines[1:]:
        ev = json.loads(line)
        e, c, a = ev["event"], ev.get("checkpoint"), ev.get("abandoned", [])
        if header.get("mode") == "at-least-once" and tracks_two(tracked, ev):
            found.add("at-least-once: a task tracks two checkpoints at once")
        if e == "TriggerCheckpoint":
            if pending:
                found.add("concurrent checkpoints (a trigger while another is pending)")
            pending.add(c)
            triggered = max(triggered, c)
        elif e in ("CompleteCheckpoint", "AbortCheckpoint"):
            pending = {d for d in pending if d > c} if e == "CompleteCheckpoint" else pending - {c}
            if e == "CompleteCheckpoint" and header.get("transactionalSink"):
                completed_since_failure.add(c)
            if e == "AbortCheckpoint":
                aborted.add(c)
                if "declinedBy" in ev:
                    found.add("DeclineCheckpoint (AbortCheckpoint with declinedBy)")
        elif e == "FailAndRestore":
            if completed_since_failure - notified:
                found.add("a completion notification lost to a failure")
            if "output" in ev and sum(n for _, n in ev["output"]) > output:
                found.add("a restore re-committing the restored checkpoint's transactions")
            completed_since_failure, notified = set(), set()
            pending = set()
            last_injected = {s: triggered for s in last_injected}
            found.add("FailAndRestore")
        elif e == "InjectBarrier":
            s = ev["task"]
            if any(last_injected.get(s, 0) < d < c for d in aborted):
                found.add("a source skips an aborted checkpoint's barrier")
            last_injected[s] = c
        elif e == "NotifyCheckpointAborted":
            found.add("NotifyCheckpointAborted abandoning an alignment" if a else
                      "NotifyCheckpointAborted remembered for the first barrier" if ev["remembered"] else
                      "NotifyCheckpointAborted of a checkpoint the task went past")
        elif e == "ReceiveBarrier" and a:
            found.add("ReceiveBarrier of a checkpoint known to be aborted" if a[-1] == c else
                      "ReceiveBarrier subsuming an older alignment")
        elif e == "ReceiveCancelBarrier":
            found.add("ReceiveCancelBarrier abandoning" if a else "ReceiveCancelBarrier dropped")
        elif e == "SendEndOfPartition":
            found.add("SendEndOfPartition")
        elif e == "ReceiveEndOfPartition":
            found.add("ReceiveEndOfPartition completing an alignment" if "snapshot" in ev else
                      "ReceiveEndOfPartition ending the task" if ev["ended"] else "ReceiveEndOfPartition")
        elif e == "NotifyCheckpointComplete":
            notified.update(d for d in completed_since_failure if d <= c)
            found.add("NotifyCheckpointComplete committing" if ev["committed"] else
                      "NotifyCheckpointComplete with nothing left to commit")
        elif e == "RunEnded":
            found.add("RunEnded")
        if "output" in ev:
            output = sum(n for _, n in ev["output"])
    return found


REQUIRED = [
    "concurrent checkpoints (a trigger while another is pending)", "FailAndRestore",
    "a source skips an aborted checkpoint's barrier",
    "NotifyCheckpointAborted abandoning an alignment", "NotifyCheckpointAborted remembered for the first barrier",
    "NotifyCheckpointAborted of a checkpoint the task went past",
    "ReceiveBarrier subsuming an older alignment", "ReceiveBarrier of a checkpoint known to be aborted",
    "ReceiveCancelBarrier abandoning", "ReceiveCancelBarrier dropped",
    "SendEndOfPartition", "ReceiveEndOfPartition", "ReceiveEndOfPartition ending the task",
    "ReceiveEndOfPartition completing an alignment", "RunEnded", "at-least-once mode",
    "threaded runtime with end of input",
    "at-least-once: a task tracks two checkpoints at once", "DeclineCheckpoint (AbortCheckpoint with declinedBy)",
    "NotifyCheckpointComplete committing", "a completion notification lost to a failure",
    "a restore re-committing the restored checkpoint's transactions",
]


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    traces = sorted(glob.glob(os.path.join(sys.argv[1], "*.ndjson")))
    if not traces:
        print("trace-coverage: no traces in " + sys.argv[1], file=sys.stderr)
        sys.exit(3)
    where = {}
    for t in traces:
        for k in cases(t):
            where.setdefault(k, []).append(os.path.basename(t)[:-len(".ndjson")])
    missing = 0
    for k in REQUIRED:
        names = where.get(k, [])
        missing += 0 if names else 1
        shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
        print("  %-62s %s" % (k, shown if names else "MISSING: no trace has it"))
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
