#!/usr/bin/env python3
"""Gait quantities of WeAllWalk walks computed from their XML (and the phone file's time span)
alone, independently of navbench's Swift code: the reference of GaitFitTests.

  .venv/bin/python scripts/make_gait_fixtures.py OUT.json [WEALLWALK_DIR]
  .venv/bin/python scripts/make_gait_fixtures.py --all OUT.json [WEALLWALK_DIR]

`--all`: the 60 shared walks (scripts/weallwalk_training_walks.txt; a folder holding more subjects
gives the same output), pooled per subject and aid (subject 1
walked with a cane and with a guide dog), with the 45° and 180° turn segments too: the reference
the built-in walkers fitted from WeAllWalk are derived from (WalkerValidationTests).

For the six walks bundled in Datasets/real/weallwalk (path T1, left pocket): per subject the
cadence on straight segments (events cut out), the step-time CV, the speed relative to the sighted
walkers' median time per segment, the mean 90° turn-segment duration, and the stop and wall-contact
rates per minute walked (docs/navigator.md, "Fitting a walker from annotated walks"). Annotations
are cut to the phone file's first…last sample, as `navbench import weallwalk` cuts them.
"""
import json
import os
import statistics
import sys
import xml.etree.ElementTree as ET

WALKS = ["T1_ID2_1L_WC", "T1_ID3_1L_WC", "T1_ID1_1L_GD", "T1_ID4_1L_GD", "T1_ID11_1L_NA", "T1_ID12_1L_NA"]
COMMUNITY = {"WC": "cane", "GD": "guide-dog", "NA": "sighted"}


def csv_span(path):
    first = last = None
    with open(path) as f:
        for line in f:
            t = float(line.split(",", 1)[0])
            first = t if first is None else first
            last = t
    return first, last


def walk(src, name):
    _, subject, _, aid = name.split("_")
    path = name.split("_")[0]
    t0, t1 = csv_span(os.path.join(src, "sensor", f"iPhoneSensors_{name}.csv"))
    root = ET.parse(os.path.join(src, "xml", f"{path}_{subject}_{aid}.xml")).getroot()
    segments, strikes, events = [], [], []
    for s in root.iter("PathSegment"):
        a, b = float(s.find("StartTime").text), float(s.find("EndTime").text)
        turn = s.find("TurnInDegrees")
        direction = s.find("Direction").text.strip()
        segments.append((s.find("SpatialSegmentID").text.strip(), a, b, None if turn is None else float(turn.text),
                         turn is None and not direction.startswith("Turn")))
        strikes += [float(st.find("Time").text) for st in s.iter("Step")]
        events += [(float(f.find("StartTime").text), float(f.find("EndTime").text), f.find("Description").text or "") for f in s.iter("Feature")]
    clip = lambda a, b: (max(a, t0), min(b, t1)) if b >= t0 and a <= t1 else None
    strikes = sorted(t for t in strikes if t0 <= t <= t1)
    segments = [(i, *c, turn, straight) for i, a, b, turn, straight in segments if (c := clip(a, b))]
    events = [(*c, d) for a, b, d in events if (c := clip(a, b))]
    cuts = []
    for a, b, _ in sorted(events):
        if b <= a:
            continue
        if cuts and a <= cuts[-1][1]:
            cuts[-1][1] = max(cuts[-1][1], b)
        else:
            cuts.append([a, b])
    n, seconds, intervals, times, turn90 = 0, 0.0, [], [], []
    turns = {45: [], 90: [], 180: []}
    building = "T1-T4" if int(path[1:]) <= 4 else "T5-T6"
    for sid, a, b, turn, straight in segments:
        if not straight:
            if turn is not None and b > a and round(abs(turn)) in turns:
                turns[round(abs(turn))].append(b - a)
            if turn is not None and abs(turn) == 90 and b > a:
                turn90.append(b - a)
            continue
        times.append((building + "/" + sid, b - a))
        start = a
        pieces = []
        for c0, c1 in cuts:
            if c1 < start or c0 > b:
                continue
            if c0 > start:
                pieces.append((start, c0))
            start = max(start, c1)
        if b > start:
            pieces.append((start, b))
        for p0, p1 in pieces:
            inside = [t for t in strikes if p0 <= t <= p1]
            n += len(inside)
            seconds += p1 - p0
            intervals += [y - x for x, y in zip(inside, inside[1:])]
    minutes = sum(max(0.0, b - a) for _, a, b, _, _ in segments) / 60
    stops = sum("stop" in d.lower() for *_, d in events)
    walls = sum("wall" in d.lower() for *_, d in events)
    return {"walk": name, "subject": subject[2:], "community": COMMUNITY[aid], "strikes": n, "seconds": seconds,
            "intervals": intervals, "times": times, "turn90": turn90, "turns": turns, "minutes": minutes, "stops": stops, "walls": walls}


def sighted_reference(walks):
    """The sighted walkers' median time per segment key: the reference of relative speed."""
    sighted = {}
    for w in walks:
        if w["community"] == "sighted":
            for k, t in w["times"]:
                sighted.setdefault(k, []).append(t)
    return {k: statistics.median(v) for k, v in sighted.items()}


def training_walks():
    """The 60 walks of the shared training subset (scripts/weallwalk_training_walks.txt), sorted."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "weallwalk_training_walks.txt")) as f:
        return sorted(line.strip() for line in f if line.strip() and not line.startswith("#"))


def main_all(out, src):
    names = training_walks()
    missing = [n for n in names if not os.path.isfile(os.path.join(src, "sensor", f"iPhoneSensors_{n}.csv"))]
    if missing:
        sys.exit(f"make_gait_fixtures.py: {src}/sensor lacks {len(missing)} of the {len(names)} shared walks "
                 f"(scripts/weallwalk_training_walks.txt), first iPhoneSensors_{missing[0]}.csv")
    walks = [walk(src, w) for w in names]
    reference = sighted_reference(walks)
    subjects = {}
    for key in sorted({(w["subject"], w["community"]) for w in walks}):
        ws = [w for w in walks if (w["subject"], w["community"]) == key]
        iv = [x for w in ws for x in w["intervals"]]
        ratios = [reference[k] / t for w in ws for k, t in w["times"] if k in reference]
        minutes = sum(w["minutes"] for w in ws)
        v = {"subject": key[0], "community": key[1], "walks": len(ws),
             "cadence": sum(w["strikes"] for w in ws) / sum(w["seconds"] for w in ws),
             "step_time_cv": statistics.stdev(iv) / statistics.fmean(iv),
             "relative_speed": statistics.median(ratios),
             "stop_rate": sum(w["stops"] for w in ws) / minutes,
             "wall_contact_rate": sum(w["walls"] for w in ws) / minutes}
        for angle in (45, 90, 180):
            d = [x for w in ws for x in w["turns"][angle]]
            if d:
                v[f"turn_duration_{angle}"] = statistics.fmean(d)
        subjects[key[0] + "/" + key[1]] = v
    with open(out, "w") as f:
        json.dump({"generator": "scripts/make_gait_fixtures.py --all", "source": "WeAllWalk (CC BY 4.0, Flores & Manduchi 2018)",
                   "walks": len(walks), "subjects": subjects}, f, indent=1, sort_keys=True)
        f.write("\n")


def main():
    shared = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "real-data", "weallwalk")
    if sys.argv[1] == "--all":
        return main_all(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else shared)
    out = sys.argv[1]
    src = sys.argv[2] if len(sys.argv) > 2 else shared
    walks = [walk(src, w) for w in WALKS]
    reference = sighted_reference(walks)
    subjects = {}
    for w in walks:  # each bundled subject walked once here, with one aid
        ratios = [reference[k] / t for k, t in w["times"] if k in reference]
        iv = w["intervals"]
        subjects[w["subject"]] = {
            "community": w["community"],
            "cadence": w["strikes"] / w["seconds"],
            "step_time_cv": statistics.stdev(iv) / statistics.fmean(iv),
            "relative_speed": statistics.median(ratios),
            "turn_duration_90": statistics.fmean(w["turn90"]),
            "stop_rate": w["stops"] / w["minutes"],
            "wall_contact_rate": w["walls"] / w["minutes"],
        }
    with open(out, "w") as f:
        json.dump({"generator": "scripts/make_gait_fixtures.py", "source": "WeAllWalk (CC BY 4.0, Flores & Manduchi 2018)",
                   "subjects": subjects}, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
