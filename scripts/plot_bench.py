#!/usr/bin/env python3
"""Plots of a benchmark series (scripts/bench_series.sh) for docs/performance.md.

    python3 scripts/plot_bench.py SERIES.jsonl [OUT_DIR]      (OUT_DIR default docs/images)

Needs matplotlib (Debian: python3-matplotlib; run with /usr/bin/python3 if another python3 comes
first on PATH). Writes three pictures:
  bench-ms-per-step.png  ms per 1/60 s frame per scene: rubble (1 and 2 threads), ODE, Bullet; the bar
                         is the median over the rounds, the whisker the fastest and slowest round
  bench-pile-scaling.png ms per frame against the number of spheres for the pile:S family (log-log)
  bench-phases.png       where rubble's frame goes, per scene: the mean ms of each pipeline phase
and prints the table behind the first one, with each engine's ratio to the faster peer, and a table of
the sleeping runs (--sleep) if the series has them.
"""
import json
import statistics
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("matplotlib is missing: apt-get install python3-matplotlib (then run with /usr/bin/python3)")

PEERS = ("ode", "bullet")
PHASES = ("integrate", "bounds", "broad", "narrow", "batches", "correct", "solve", "sleep", "transfer")


def label(run):
    if run["engine"] == "rubble":
        return "rubble %s, %d thr" % (run.get("solver", "?"), run.get("threads", 0))
    return {"ode": "ODE", "bullet": "Bullet"}.get(run["engine"], run["engine"])


def load(path):
    runs = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                runs.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit("%s:%d: not a JSON line (%s)" % (path, n, e))
    if not runs:
        sys.exit("%s: no runs" % path)
    return runs


def by_scene_and_label(runs, scenes):
    table = {}
    for r in runs:
        if r["scene"] in scenes:
            table.setdefault(r["scene"], {}).setdefault(label(r), []).append(r["ms_per_step_median"])
    return table


def machine_note(runs):
    loads = [r["load"] for r in runs if "load" in r]
    rounds = max((r.get("round", 1) for r in runs), default=1)
    note = "%d round(s), interleaved" % rounds
    if loads:
        note += "; 1-min load %.1f-%.1f" % (min(loads), max(loads))
    return note


def plot_frames(runs, out):
    scenes = [s for s in ("pyramid", "stack", "boxes", "pile") if any(r["scene"] == s for r in runs)]
    table = by_scene_and_label(runs, scenes)
    labels = sorted({l for s in table.values() for l in s}, key=lambda l: (not l.startswith("rubble"), l))
    fig, axes = plt.subplots(1, len(scenes), figsize=(3.2 * len(scenes), 3.6))
    if len(scenes) == 1:
        axes = [axes]
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    print("| scene | " + " | ".join(labels) + " |")
    print("| --- " * (len(labels) + 1) + "|")
    for ax, scene in zip(axes, scenes):
        meds, lo, hi = [], [], []
        for l in labels:
            v = table[scene].get(l, [])
            m = statistics.median(v) if v else 0.0
            meds.append(m)
            lo.append(m - min(v) if v else 0.0)
            hi.append(max(v) - m if v else 0.0)
        ax.bar(range(len(labels)), meds, yerr=[lo, hi], capsize=3, color=colours[:len(labels)])
        ax.set_title(scene)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=40, ha="right", fontsize=8)
        ax.set_ylabel("ms per frame (1/60 s)")
        best_peer = min((meds[i] for i, l in enumerate(labels) if l in ("ODE", "Bullet") and meds[i] > 0),
                        default=0.0)
        cells = []
        for i, l in enumerate(labels):
            ratio = " (%.2f)" % (meds[i] / best_peer) if best_peer > 0 and meds[i] > 0 else ""
            cells.append("%.2f%s" % (meds[i], ratio))
        print("| %s | %s |" % (scene, " | ".join(cells)))
    fig.suptitle("Standard scenes, CPU, sleeping off (%s)" % machine_note(runs), fontsize=9)
    fig.tight_layout()
    fig.savefig(out + "/bench-ms-per-step.png", dpi=110)
    plt.close(fig)
    print("(ratio to the faster of ODE and Bullet in brackets)")


def plot_scaling(runs, out):
    pile = [r for r in runs if r["scene"].startswith("pile")]
    curves = {}
    for r in pile:
        curves.setdefault(label(r), {}).setdefault(r["bodies"], []).append(r["ms_per_step_median"])
    if not any(len(c) > 1 for c in curves.values()):
        print("no pile:S series with more than one size: bench-pile-scaling.png not written")
        return
    fig, ax = plt.subplots(figsize=(5.5, 4))
    for l, pts in sorted(curves.items()):
        xs = sorted(pts)
        ax.plot(xs, [statistics.median(pts[x]) for x in xs], marker="o", label=l)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("spheres (pile:S, S x S x 20)")
    ax.set_ylabel("ms per frame (1/60 s)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("pile:S scaling, CPU (%s)" % machine_note(runs), fontsize=9)
    fig.tight_layout()
    fig.savefig(out + "/bench-pile-scaling.png", dpi=110)
    plt.close(fig)


def plot_phases(runs, out):
    mine = [r for r in runs if r["engine"] == "rubble" and "phases_ms" in r and ":" not in r["scene"]]
    if not mine:
        print("no rubble runs with phases: bench-phases.png not written")
        return
    keys = sorted({(r["scene"], r.get("threads", 0)) for r in mine})
    fig, ax = plt.subplots(figsize=(1.1 * len(keys) + 3, 4))
    bottoms = [0.0] * len(keys)
    for phase in PHASES:
        vals = []
        for scene, thr in keys:
            v = [r["phases_ms"].get(phase, 0.0) for r in mine if r["scene"] == scene and r.get("threads", 0) == thr]
            vals.append(statistics.median(v) if v else 0.0)
        if any(vals):
            ax.bar(range(len(keys)), vals, bottom=bottoms, label=phase)
            bottoms = [b + v for b, v in zip(bottoms, vals)]
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(["%s\n%d thr" % k for k in keys], fontsize=8)
    ax.set_ylabel("mean ms per frame")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("rubble's frame by pipeline phase (%s)" % mine[0].get("solver", "?"), fontsize=9)
    fig.tight_layout()
    fig.savefig(out + "/bench-phases.png", dpi=110)
    plt.close(fig)


def print_sleep(runs):
    sleeping = [r for r in runs if r.get("sleep") and "awake_final" in r]
    if not sleeping:
        return
    print()
    print("| scene | engine | frames | bodies awake at the end | all asleep after |")
    print("| --- | --- | --- | --- | --- |")
    for r in sleeping:
        t = r.get("all_asleep_s", -1)
        print("| %s | %s | %d | %d of %d | %s |" % (r["scene"], label(r), r["steps"], r["awake_final"], r["bodies"],
                                                    "%.2f s" % t if t >= 0 else "never"))


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    out = sys.argv[2] if len(sys.argv) > 2 else "docs/images"
    everything = load(sys.argv[1])
    runs = [r for r in everything if not r.get("sleep")]  # the timing runs: sleeping off
    if runs:
        plot_frames(runs, out)
        plot_scaling(runs, out)
        plot_phases(runs, out)
    else:
        print("no runs with sleeping off: no pictures")
    print_sleep(everything)


if __name__ == "__main__":
    main()
