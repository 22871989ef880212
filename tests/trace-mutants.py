#!/usr/bin/env python3
"""tests/trace-mutants.py: does trace validation reject wrong traces? 

Takes traces the validator accepts, applies systematic mutations to them, lets
./model-check.sh --trace --require-end judge every mutant, and reports the mutation score per
operator.  A *semantic* mutant describes a run the specification does not allow: it must be
rejected.  An *equivalent* mutant describes another behaviour of the same run (two causally
independent events of a causal trace in the other order; a step that changes no state of the
spec dropped or repeated): it must be accepted -- which also tests the causal merge, since every
linearization of the causal order must be a behaviour of the spec.

Usage: tests/trace-mutants.py [--seed N] [--per-operator K] [--jobs N] [--out DIR] [--list]
                              [--equivalent-only TRACE]... TRACE...

  --seed N          the sample of mutants (default 13): the same seed, the same mutants
  --per-operator K  at most K mutants per operator, sampled over all the traces (default 3)
  --jobs N          TLCs at once (default 2)
  --out DIR         where the mutants and the verdicts go (default target/trace-mutants)
  --list            write the mutants and list them, validate none
  --equivalent-only TRACE  only the equivalent operators on TRACE (repeatable): for a causal
                    trace of the threaded runtime, which differs from run to run, so that the
                    semantic sample (from the TRACE arguments, deterministic runs) stays the same

Operators (semantic: must be rejected):
  drop            drop an event that changes the spec's state (RunEnded too: a prefix)
  duplicate       repeat an event right after itself
  swap-causal     swap two adjacent events the second of which depends on the first: a message
                  and its receipt, a trigger and its barrier, the last acknowledgement and the
                  completion, an abort and its notification, two emits of one source
  offset          change an offset (emitted, recorded in a checkpoint, restored, ended at) by 1
  record          change the record an event emits or processes (its offset + 1)
  checkpoint      change the checkpoint id of a barrier event, a trigger or a completion by 1
  persisted-drop  drop a persisted record (channel state) or mark a persisted one as not
  persisted-add   add a persisted record or mark a record persisted that was not
  snapshot-early  a snapshot as if taken one event early (without the task's last record)
  snapshot-late   a snapshot as if taken one event late (with the task's next record)
Operators (equivalent: must be accepted):
  swap-independent  swap two adjacent events whose vector clocks are concurrent (causal traces)
  stutter           drop or repeat an event that is no spec step (an abort notification the
                    task only remembered or had gone past, a commit notification with nothing
                    to commit)

Environment: TRACE_MUTANTS_JUDGE, a command in place of ./model-check.sh (for the step's broken
twin: tests/trace-mutants-fixtures/accept-every-trace.sh).

Exit codes: 0 every semantic mutant rejected and every equivalent one accepted; 1 not so (the
survivors are listed); 2 bad usage; 3 environment (no trace, model-check.sh failed to judge)."""
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEMANTIC = ["drop", "duplicate", "swap-causal", "offset", "record", "checkpoint", "persisted-drop",
            "persisted-add", "snapshot-early", "snapshot-late"]
EQUIVALENT = ["swap-independent", "stutter"]
ACKS = ("InjectBarrier", "ReceiveBarrier", "ReceiveEndOfPartition")


def die(msg, code=2):
    print("trace-mutants.py: " + msg, file=sys.stderr)
    sys.exit(code)


def dump(ev):
    return json.dumps(ev, separators=(",", ":"))


def stutter(ev):
    """An event that is no spec step: TLC matches it without changing the spec's state."""
    e = ev["event"]
    return (e == "NotifyCheckpointAborted" and not ev.get("abandoned")) or \
           (e == "NotifyCheckpointComplete" and not ev.get("committed"))


def edge(ev):
    return tuple(ev["channel"]) if "channel" in ev else None


def depends(a, b):
    """Event b depends on event a, immediately before it: swapping them breaks the run."""
    ea, eb = a["event"], b["event"]
    if ea == eb == "EmitRecord" and a["task"] == b["task"]:
        return True
    if ea == "TriggerCheckpoint" and b.get("checkpoint") == a["checkpoint"] and eb != "TriggerCheckpoint":
        return True
    if eb == "ProcessRecord" and ea in ("EmitRecord", "ProcessRecord") and a.get("record") == b["record"] \
            and edge(b)[0] == a["task"]:
        return True
    if eb == "ReceiveBarrier" and edge(b)[0] == a.get("task") and a.get("checkpoint") == b["checkpoint"] \
            and (ea == "InjectBarrier" or (ea == "ReceiveBarrier" and "snapshot" in a)):
        return True
    if eb == "ReceiveEndOfPartition" and ea in ("SendEndOfPartition", "ReceiveEndOfPartition") \
            and edge(b)[0] == a["task"] and (ea == "SendEndOfPartition" or a.get("ended")):
        return True
    if eb == "CompleteCheckpoint" and ea in ACKS and a.get("checkpoint") == b["checkpoint"] and "snapshot" in a or \
            (eb == "CompleteCheckpoint" and ea == "InjectBarrier" and a["checkpoint"] == b["checkpoint"]):
        return True
    if ea == "AbortCheckpoint" and eb == "NotifyCheckpointAborted" and a["checkpoint"] == b["checkpoint"]:
        return True
    if ea == "CompleteCheckpoint" and eb == "NotifyCheckpointComplete" and a["checkpoint"] == b["checkpoint"]:
        return True
    return False


def concurrent(a, b, procs):
    """No happens-before between a and b (a causal trace: fields p, vc; header processes). Event e
    of process p precedes f iff vc(e)[p] <= vc(f)[p]: a clock may name a process's next event (a
    message carries the number of the event its step records), so whole vectors are not compared."""
    if "vc" not in a or "vc" not in b or not procs or a.get("p") not in procs or b.get("p") not in procs:
        return False
    pa, pb = procs.index(a["p"]), procs.index(b["p"])
    return pa != pb and not a["vc"][pa] <= b["vc"][pa] and not b["vc"][pb] <= a["vc"][pb]


def bump_record(r):
    return {"src": r["src"], "off": r["off"] + 1}


def mutants_of(events, procs=None):
    """Every candidate mutant of one trace: (operator, description, new event list)."""
    out = []
    n = len(events)

    def put(op, k, what, evs):
        out.append((op, "event %d (%s): %s" % (k + 1, events[k]["event"], what), evs))

    for k, ev in enumerate(events):
        e = ev["event"]
        if not stutter(ev):
            put("drop", k, "dropped", events[:k] + events[k + 1:])
        else:
            put("stutter", k, "a step that is none dropped", events[:k] + events[k + 1:])
            put("stutter", k, "a step that is none repeated", events[:k + 1] + [ev] + events[k + 1:])
        if not stutter(ev) and e not in ("FailAndRestore", "RunEnded"):
            # (a second failure right after one, and a second RunEnded, are behaviours of the spec)
            put("duplicate", k, "repeated", events[:k + 1] + [ev] + events[k + 1:])
        if k + 1 < n and depends(ev, events[k + 1]):
            put("swap-causal", k, "swapped with event %d (%s), which depends on it" % (k + 2, events[k + 1]["event"]),
                events[:k] + [events[k + 1], ev] + events[k + 2:])
        if k + 1 < n and concurrent(ev, events[k + 1], procs) and e != "RunEnded" and events[k + 1]["event"] != "RunEnded":
            put("swap-independent", k, "swapped with event %d (%s), causally independent" % (k + 2, events[k + 1]["event"]),
                events[:k] + [events[k + 1], ev] + events[k + 2:])

        def changed(field_fn, op, what):
            m = json.loads(dump(ev))
            if field_fn(m) is not False:
                put(op, k, what, events[:k] + [m] + events[k + 1:])

        if e in ("EmitRecord", "InjectBarrier", "SendEndOfPartition"):
            changed(lambda m: m.__setitem__("offset", m["offset"] + 1), "offset", "offset + 1")
            if ev["offset"] > 0 and e == "InjectBarrier":
                changed(lambda m: m.__setitem__("offset", m["offset"] - 1), "offset", "offset - 1")
        if e in ("CompleteCheckpoint", "FailAndRestore") and ev.get("offsets"):
            changed(lambda m: m["offsets"][0].__setitem__(1, m["offsets"][0][1] + 1), "offset",
                    "offset of %s + 1" % ev["offsets"][0][0])
        if e in ("EmitRecord", "ProcessRecord"):
            changed(lambda m: m.__setitem__("record", bump_record(m["record"])), "record", "record offset + 1")
        if e in ("InjectBarrier", "ReceiveBarrier", "ReceiveCancelBarrier", "CompleteCheckpoint", "TriggerCheckpoint"):
            changed(lambda m: m.__setitem__("checkpoint", m["checkpoint"] + 1), "checkpoint", "checkpoint id + 1")
            if ev["checkpoint"] > 1 and e in ("ReceiveBarrier", "CompleteCheckpoint"):
                changed(lambda m: m.__setitem__("checkpoint", m["checkpoint"] - 1), "checkpoint", "checkpoint id - 1")
        # persisted records: per-edge lists (InjectBarrier, ReceiveBarrier), the flag of ProcessRecord,
        # a completed checkpoint's channel state
        lists = "persisted" if isinstance(ev.get("persisted"), list) else "channelState" if e == "CompleteCheckpoint" else None
        if lists:
            for j, (d, recs) in enumerate(ev[lists]):
                if recs:
                    changed(lambda m, j=j: m[lists][j][1].pop(), "persisted-drop", "last persisted record on %s dropped" % d)
                    break
            last = next((x.get("record") for x in reversed(events[:k]) if x["event"] == "EmitRecord"), None)
            if last is not None:
                if ev[lists]:
                    changed(lambda m: m[lists][0][1].append(last), "persisted-add",
                            "record %s persisted on %s too" % (last, ev[lists][0][0]))
                elif e == "CompleteCheckpoint":
                    edges = [x["channel"] for x in events if "channel" in x]
                    if edges:
                        changed(lambda m: m[lists].append([edges[0], [last]]), "persisted-add",
                                "record %s persisted on %s" % (last, edges[0]))
        if e == "ProcessRecord" and isinstance(ev.get("persisted"), bool):
            op = "persisted-drop" if ev["persisted"] else "persisted-add"
            changed(lambda m: m.__setitem__("persisted", not m["persisted"]), op,
                    "persisted %s instead of %s" % (not ev["persisted"], ev["persisted"]))
        if "snapshot" in ev and "task" in ev:
            t = ev["task"]
            before = next((x["record"] for x in reversed(events[:k]) if x["event"] == "ProcessRecord" and x["task"] == t), None)
            after = next((x["record"] for x in events[k + 1:] if x["event"] == "ProcessRecord" and x["task"] == t), None)
            bag = {json.dumps(r, sort_keys=True): c for r, c in ev["snapshot"]}
            if before is not None and json.dumps(before, sort_keys=True) in bag:
                def early(m):
                    for p in m["snapshot"]:
                        if p[0] == before:
                            p[1] -= 1
                    m["snapshot"] = [p for p in m["snapshot"] if p[1] > 0]
                changed(early, "snapshot-early", "snapshot without %s, the task's last record before it" % before)
            if after is not None:
                def late(m):
                    for p in m["snapshot"]:
                        if p[0] == after:
                            p[1] += 1
                            return
                    m["snapshot"].append([after, 1])
                changed(late, "snapshot-late", "snapshot with %s, the task's next record" % after)
    return out


def main(argv):
    seed, per, jobs, out_dir, listing, traces = 13, 3, 2, os.path.join(ROOT, "target", "trace-mutants"), False, []
    equivalent_only = []
    it = iter(argv)
    for a in it:
        if a in ("-h", "--help"):
            print(__doc__)
            return 0
        if a in ("--seed", "--per-operator", "--jobs", "--out", "--equivalent-only"):
            v = next(it, None)
            if v is None:
                die(a + " needs a value")
            if a == "--out":
                out_dir = v
                continue
            if a == "--equivalent-only":
                equivalent_only.append(v)
                continue
            if not v.isdigit() or (a != "--seed" and int(v) < 1):
                die("%s needs a whole number%s, got '%s'" % (a, "" if a == "--seed" else " >= 1", v))
            seed, per, jobs = (int(v), per, jobs) if a == "--seed" else (seed, int(v), jobs) if a == "--per-operator" \
                else (seed, per, int(v))
        elif a == "--list":
            listing = True
        elif a.startswith("--"):
            die("unknown option '%s' (see --help)" % a)
        else:
            traces.append(a)
    if not traces and not equivalent_only:
        die("no TRACE given (see --help)")
    candidates = {op: [] for op in SEMANTIC + EQUIVALENT}
    for t in traces + equivalent_only:
        try:
            lines = open(t, encoding="utf-8").read().splitlines()
            header, events = lines[0], [json.loads(l) for l in lines[1:]]
        except (OSError, ValueError, IndexError) as e:
            die("cannot read trace %s: %s" % (t, e), 3)
        for op, what, evs in mutants_of(events, json.loads(header).get("processes")):
            if t in equivalent_only and t not in traces and op not in EQUIVALENT:
                continue
            candidates[op].append((os.path.basename(t)[:-len(".ndjson")] if t.endswith(".ndjson") else os.path.basename(t),
                                   what, header, evs))
    rng = random.Random(seed)
    chosen = []
    for op in SEMANTIC + EQUIVALENT:
        pool = candidates[op]
        pick = sorted(rng.sample(range(len(pool)), min(per, len(pool))))
        chosen += [(op,) + pool[i] for i in pick]
    os.makedirs(out_dir, exist_ok=True)
    for f in os.listdir(out_dir):
        if f.endswith(".ndjson"):
            os.remove(os.path.join(out_dir, f))
    files = []
    for n, (op, base, what, header, evs) in enumerate(chosen):
        f = os.path.join(out_dir, "%02d-%s-%s.ndjson" % (n + 1, op, base))
        with open(f, "w", encoding="utf-8") as w:
            w.write(header + "\n" + "".join(dump(e) + "\n" for e in evs))
        files.append(f)
    print("trace mutants: %d of %d candidates (seed %d, at most %d per operator) from %d traces, in %s"
          % (len(chosen), sum(len(v) for v in candidates.values()), seed, per, len(traces) + len(equivalent_only), out_dir))
    if listing:
        for f, (op, base, what, _, _) in zip(files, chosen):
            print("  %-16s %s: %s  (%s)" % (op, base, what, os.path.basename(f)))
        return 0
    doc_file = os.path.join(out_dir, "verdicts.json")
    # TRACE_MUTANTS_JUDGE replaces ./model-check.sh (same arguments, same JSON), so that a judge
    # that accepts every trace can show this step failing (tests/trace-validation.sh's twin).
    judge = os.environ.get("TRACE_MUTANTS_JUDGE") or os.path.join(ROOT, "model-check.sh")
    cmd = [judge, "--json", "--no-pictures", "--require-end", "--jobs", str(jobs)]
    for f in files:
        cmd += ["--trace", f]
    with open(doc_file, "w") as w, open(os.path.join(out_dir, "model-check.log"), "w") as log:
        rc = subprocess.call(cmd, stdout=w, stderr=log)
    try:
        verdicts = {v["trace"]: v for v in json.load(open(doc_file))["traces"]}
    except (OSError, ValueError, KeyError) as e:
        die("model-check.sh (exit %d) gave no verdicts: %s; see %s" % (rc, e, os.path.join(out_dir, "model-check.log")), 3)
    score = {op: [0, 0] for op in SEMANTIC + EQUIVALENT}
    bad = []
    for f, (op, base, what, _, _) in zip(files, chosen):
        v = verdicts.get(f)
        actual = v["actual"] if v else "missing"
        want = "rejected" if op in SEMANTIC else "accepted"
        score[op][1] += 1
        if actual == want:
            score[op][0] += 1
        else:
            bad.append("  %s %s: %s: %s, expected %s (%s)%s" % (
                op, base, what, actual, want, os.path.basename(f),
                "" if not v or actual != "error" else "; " + v["report"].splitlines()[0]))
        where = (" at event %s" % v["unexplained_event"]) if v and v.get("unexplained_event") else ""
        print("  %-16s %-8s %s: %s%s" % (op, actual, base, what, where))
    print("trace mutants, score per operator (semantic: rejected / mutants; equivalent: accepted / mutants):")
    for op in SEMANTIC + EQUIVALENT:
        k, n = score[op]
        print("  %-16s %-10s %d/%d%s" % (op, "semantic" if op in SEMANTIC else "equivalent", k, n,
                                        "" if n else "  (no candidate in these traces)"))
    sem = [sum(score[o][i] for o in SEMANTIC) for i in (0, 1)]
    eq = [sum(score[o][i] for o in EQUIVALENT) for i in (0, 1)]
    print("trace mutants: %d/%d semantic mutants rejected, %d/%d equivalent mutants accepted" % (sem[0], sem[1], eq[0], eq[1]))
    if bad:
        print("NOT AS EXPECTED:")
        print("\n".join(bad))
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
