#!/usr/bin/env python3
"""Restyles TLC's `-dump dot,actionlabels,colorize` output for docs/spec.md's state graph picture.

Each state becomes a small dot coloured by its checkpoint (white: none, blue: pending, green:
completed), drawn as a box while the join has a barrier but not all of them (aligned: an input
is blocked); edges keep TLC's colour per action (legend kept) but lose their text. Reads the dot
file on stdin, writes the restyled one on stdout. Standard library only.
"""
import re
import sys

NODE = re.compile(r'^(-?\d+) \[label="(.*)"(,style = filled)?\];?$')
EDGE = re.compile(r'^(-?\d+ -> -?\d+) \[label="([^"]*)",(.*)\];$')

out = []
for line in sys.stdin.read().splitlines():
    m = NODE.match(line)
    if m:
        state = m.group(2)
        ckpt = re.search(r'ckpt = <<\\"(\w+)\\"', state)
        status = ckpt.group(1) if ckpt else "none"
        fill = {"none": "white", "pending": "#bfdbfe", "completed": "#86efac"}.get(status, "#fecaca")
        blocked = re.search(r'arrived = \[join \|-> \{[^}]', state) is not None
        initial = m.group(3) is not None
        shape = "box" if blocked else "circle"
        out.append(f'{m.group(1)} [label="",shape={shape},width=0.22,height=0.22,fixedsize=true,style=filled,'
                   f'fillcolor="{fill}",penwidth={3 if initial else 1}]')
        continue
    m = EDGE.match(line)
    if m:
        out.append(f'{m.group(1)} [{m.group(3)},arrowsize=0.5,penwidth=1.2];')
        continue
    if line.startswith("nodesep"):
        out.append("nodesep=0.12; ranksep=0.35; rankdir=TB;")
        continue
    out.append(line)
# One legend node (a table) instead of TLC's wide legend cluster: actions by colour, states by look.
PAIRED12 = ["#a6cee3", "#1f78b4", "#b2df8a", "#33a02c", "#fb9a99", "#e31a1c",
            "#fdbf6f", "#ff7f00", "#cab2d6", "#6a3d9a", "#ffff99", "#b15928"]
ACTION = re.compile(r'^(\w+) \[label="\w+",fillcolor=(\d+)\]$')
actions = [(m.group(1), int(m.group(2))) for m in map(ACTION.match, out) if m]
body = [l for l in out if not ACTION.match(l)]
text = "\n".join(body)
cut = text.find("subgraph cluster_legend")
if cut >= 0:
    text = text[:cut].rstrip()
    rows = "".join(f'<TR><TD BGCOLOR="{PAIRED12[c - 1]}" WIDTH="26"> </TD><TD ALIGN="LEFT">{a}</TD></TR>' for a, c in sorted(actions, key=lambda x: x[1]))
    states = [("white", "circle", "no checkpoint (thick: the initial state)"), ("#bfdbfe", "circle", "checkpoint 1 pending"),
              ("#bfdbfe", "box", "pending, the join aligning: an input blocked"), ("#86efac", "circle", "checkpoint 1 completed")]
    srows = "".join(f'<TR><TD BGCOLOR="{f}" BORDER="1" STYLE="{"ROUNDED" if sh == "circle" else ""}"> </TD><TD ALIGN="LEFT">{t}</TD></TR>' for f, sh, t in states)
    text += ('\nlegend [shape=none,fontsize=11,label=<<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="3">'
             '<TR><TD COLSPAN="2"><B>edges: actions</B></TD></TR>' + rows +
             '<TR><TD COLSPAN="2"><B>nodes: states</B></TD></TR>' + srows + '</TABLE>>]\n}')
print(text)
