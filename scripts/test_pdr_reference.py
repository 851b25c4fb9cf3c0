#!/usr/bin/env python3
"""Self-check of scripts/pdr_reference.py against hand-computed numbers (worked out in
scripts/make_pdr_fixtures.py's comments; written out literally here, not produced by code).
Also checks that the committed fixtures' hand cases hold the same numbers.
Run: .venv/bin/python scripts/test_pdr_reference.py   (exit status 1 on any failure)
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pdr_reference as ref  # noqa: E402

ROOT = os.path.dirname(HERE)
FAILS = []


def check(what, got, want):
    if got != want:
        FAILS.append(f"{what}: got {got!r}, want {want!r}")


def seg(id_, s, e, straight, nominal, steps):
    return {"id": id_, "start": s, "end": e, "straight": straight, "nominal_deg": nominal,
            "steps": steps}


HAND_WALK = {
    "segments": [
        seg("1", 0.0, 10.0, True, None, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]),
        seg("1-2", 10.0, 12.0, False, -90.0, [10.5, 11.5]),
        seg("2", 12.0, 20.0, True, None, [12.05, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 18.5, 19.5]),
        seg("2-3", 20.0, 22.0, False, 90.0, [20.5, 21.5]),
        seg("3", 22.0, 26.0, True, None, [22.5, 23.5, 24.5, 25.5]),
    ],
    "features": [{"start": 4.5, "end": 5.5, "description": "touches wall"},
                 {"start": 11.5, "end": 12.2, "description": "stops"},
                 {"start": 12.8, "end": 18.2, "description": "opens door"}],
}
HAND_DETS = [0.5, 1.0, 2.1, 2.4, 2.8, 4.5, 5.0, 5.7, 6.2, 8.3, 10.0, 10.6, 11.4, 12.1, 12.3,
             12.6, 15.0, 18.6, 21.0, 22.6, 24.7]
# S1: under1 2 ([3,4), [7,8)), over1 2 (3 detections in [2,3)), T 8 D 10 -> over3 2.
# S2: under1 1 ([19.5,20]), T 2 D 3 -> over3 1.  S3: under1 2, T 4 D 2 -> under3 2.
HAND_STEPS = {"true_steps": 14, "under1": 5, "over1": 2, "under3": 2, "over3": 3,
              "under1_rate": 5 / 14, "over1_rate": 2 / 14, "under3_rate": 2 / 14,
              "over3_rate": 3 / 14}

HAND_ANN = [[10.0, 14.0, -90.0], [30.0, 33.0, 90.0], [50.0, 52.0, 180.0], [70.0, 72.0, -45.0],
            [90.0, 94.0, 90.0], [95.0, 97.0, 90.0]]
HAND_DET = [[10.5, 13.5, -85.0], [12.5, 15.5, -20.0], [29.5, 30.5, -80.0], [32.0, 34.0, 75.0],
            [53.5, 54.5, 170.0], [72.5, 73.5, -50.0], [94.5, 94.9, 60.0]]
HAND_TURNS = {"annotated": 6, "detected": 7, "matched": 4, "missed": 2, "false": 3,
              "precision": 4 / 7, "recall": 4 / 6, "sign_errors": 1,
              "pairs": [[0, 0, 5.0], [1, 2, -170.0], [3, 5, -5.0], [4, 6, -30.0]]}

PEAKS_X = [0, 1, 0, 2, 2, 0, 3, 3, 3, 1, 4, 4, 4, 4, 0, 5]
ENDS_X = [5, 1, 2, 1, 2, 2, 3, 1, 4, 4]


def main():
    check("pieces S1", ref.straight_pieces(0.0, 10.0, HAND_WALK["features"]),
          [(0.0, 4.5), (5.5, 10.0)])
    check("pieces S2", ref.straight_pieces(12.0, 20.0, HAND_WALK["features"]),
          [(12.2, 12.8), (18.2, 20.0)])
    check("pieces touching feature", ref.straight_pieces(0.0, 5.0, [{"start": 5.0, "end": 6.0}]),
          [(0.0, 5.0)])
    check("pieces all covered", ref.straight_pieces(1.0, 2.0, [{"start": 0.0, "end": 3.0}]), [])
    check("score_steps hand", ref.score_steps(HAND_WALK, HAND_DETS), HAND_STEPS)
    check("score_steps no steps", ref.score_steps({"segments": [], "features": []}, [1.0])["under1_rate"], 0.0)
    check("score_turns hand", ref.score_turns(HAND_ANN, HAND_DET, 1.0), HAND_TURNS)
    check("score_turns empty", ref.score_turns([], [], 1.0)["precision"], 0.0)
    check("peaks", ref.find_peaks_reference(PEAKS_X, None, 1), [1, 3, 7, 11])
    check("peaks distance 3", ref.find_peaks_reference(PEAKS_X, None, 3), [3, 7, 11])
    check("peaks height 2.5", ref.find_peaks_reference(PEAKS_X, 2.5, 1), [7, 11])
    check("peaks height == value", ref.find_peaks_reference(PEAKS_X, 3.0, 1), [7, 11])
    check("peaks ends", ref.find_peaks_reference(ENDS_X, None, 1), [2, 6])
    check("distance 0.3 s", ref.distance_samples(0.3), 8)

    xml = os.path.join(ROOT, "..", "shared", "real-data", "weallwalk", "xml", "T1_ID1_WC.xml")
    if os.path.exists(xml):
        w = ref.parse_walk_xml(xml)
        check("T1_ID1_WC segments", len(w["segments"]), 7)
        check("T1_ID1_WC straight", [s["straight"] for s in w["segments"]],
              [True, False, True, False, True, False, True])
        check("T1_ID1_WC first segment", (w["segments"][0]["id"], w["segments"][0]["start"],
                                          w["segments"][0]["end"], len(w["segments"][0]["steps"])),
              ("1", 4.5752, 13.1752, 14))
        check("T1_ID1_WC turn", w["segments"][1]["nominal_deg"], -90.0)
        check("T1_ID1_WC steps", sum(len(s["steps"]) for s in w["segments"]), 149)
        check("T1_ID1_WC features", [(f["start"], f["end"]) for f in w["features"]],
              [(9.041862, 10.041862)])

    fx = os.path.join(ROOT, "Tests", "NavMetricsTests", "Fixtures", "pdr")
    if os.path.exists(os.path.join(fx, "step_scoring.json")):
        c = json.load(open(os.path.join(fx, "step_scoring.json")))["cases"][0]
        check("fixture step hand", (c["name"], c["expected"], c["detections"]),
              ("hand", HAND_STEPS, HAND_DETS))
        c = json.load(open(os.path.join(fx, "turn_scoring.json")))["cases"][0]
        check("fixture turn hand", (c["name"], c["expected"], c["annotated"], c["detected"]),
              ("hand", HAND_TURNS, HAND_ANN, HAND_DET))

    for f in FAILS:
        print("FAIL", f)
    print(f"{'FAILED' if FAILS else 'OK'}: {len(FAILS)} failure(s)")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
