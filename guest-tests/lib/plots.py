#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make plots: PNG charts of a make bench timeline, drawn by gnuplot.

- breathe.png: `0 1000 255 1000` on lp5523:r, ledtrig-pattern (timer,
  hr_pattern, hw_pattern) against the software engine and the LP5523
  engines, with the ideal curve;
- colour.png: `#000000 1000 #ff40c0 1000` on r, g, b, one panel per
  implementation;
- drift.png: how late each rising edge of the 1 Hz blink comes, against
  the first edge plus whole periods.

Usage: plots.py <timeline> <output dir>
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from bench import (BREATHE, COLOUR_PEAKS, OUTPUTS, RGB, Bench, Output,  # noqa: E402
                   crossings, ideal_table)

IMPLS = [("ledtrig", "ledtrig-pattern", "#e07020"),
         ("ledtrighr", "ledtrig-pattern hr_pattern", "#a050a0"),
         ("hwpattern", "ledtrig-pattern hw_pattern", "#808000"),
         ("ledtrigmc", "ledtrig-pattern on ring:rgb", "#c06080"),
         ("groupmc", "ledtrig-pattern on leds-group-multicolor", "#606060"),
         ("software", "software engine", "#2060c0"),
         ("groupsw", "software engine on leds-group-multicolor", "#20a0c0"),
         ("hardware", "LP5523 engine", "#20a040")]
NAMES = [("red", "#d01010"), ("green", "#10a010"), ("blue", "#1030e0")]
SECONDS = 4.5
TERM = "set terminal pngcairo noenhanced size 900,{h} font 'DejaVu Sans,10' linewidth 1.5"


def outputs(impl):
    """The red, green and blue outputs an implementation drove."""
    return OUTPUTS.get(impl, (RGB, None))[0]


def steps_file(path, out, t_run, seconds):
    """Sample-and-hold points of one output from the run mark on."""
    with open(path, "w") as f:
        f.write(f"0 {out.at(t_run)}\n")
        for t, p in out.changes():
            if t_run <= t <= t_run + seconds * 1e6:
                f.write(f"{(t - t_run) / 1e6:.6f} {p}\n")
        f.write(f"{seconds} {out.at(t_run + seconds * 1e6)}\n")


def first_run(b, case, impl):
    runs = b.runs(case, impl)
    return b.window(case, impl, runs[0]) if runs else None


def main():
    b = Bench(sys.argv[1], None)
    odir = sys.argv[2]
    os.makedirs(odir, exist_ok=True)
    gp = []

    # breathe: one output, every implementation, the ideal
    table, period = ideal_table(BREATHE)
    with open(f"{odir}/breathe-ideal.dat", "w") as f:
        for ms in range(0, int(SECONDS * 1000) + 1, 5):
            f.write(f"{ms / 1000} {table[ms % period]}\n")
    plots = [f"'{odir}/breathe-ideal.dat' with lines dt 2 lc rgb '#808080' title 'ideal'"]
    for impl, name, colour in IMPLS:
        w = first_run(b, "breathe", impl)
        if not w:
            plots.append(f"1/0 with lines lc rgb '{colour}' title '{name}: pending'")
            continue
        steps_file(f"{odir}/breathe-{impl}.dat",
                   Output(b.tl.changes, outputs(impl)[0], w[1], w[2]),
                   w[1], SECONDS)
        plots.append(f"'{odir}/breathe-{impl}.dat' with steps lc rgb '{colour}' title '{name}'")
    gp += [TERM.format(h=380), f"set output '{odir}/breathe.png'",
           "set title 'breathe 0 1000 255 1000 on lp5523:r, as the emulated chip showed it'",
           "set xlabel 'seconds after echo run / the pattern write'", "set ylabel 'PWM'",
           "set yrange [-5:270]", "set xrange [0:%g]" % SECONDS, "set key below horizontal",
           "set grid", "plot " + ", ".join(plots), "unset output"]

    # colour: one panel per implementation that ran
    ran = [(i, n, c) for i, n, c in IMPLS if first_run(b, "colour", i)]
    gp += [TERM.format(h=260 * len(ran) + 40), f"set output '{odir}/colour.png'",
           f"set multiplot layout {len(ran)},1 title "
           "'colour breathe #000000 1000 #ff40c0 1000 on lp5523:r, g, b'",
           "set key inside right top horizontal opaque", "set grid", "set yrange [-5:300]",
           "set xrange [0:%g]" % SECONDS, "set ylabel 'PWM'"]
    for k, (impl, name, _) in enumerate(ran):
        w = first_run(b, "colour", impl)
        lines = []
        for k2, o in enumerate(outputs(impl)):
            steps_file(f"{odir}/colour-{impl}-{o}.dat", Output(b.tl.changes, o, w[1], w[2]),
                       w[1], SECONDS)
            lines.append(f"'{odir}/colour-{impl}-{o}.dat' with steps lc rgb '{NAMES[k2][1]}'"
                         f" title '{NAMES[k2][0]} (peak {COLOUR_PEAKS[k2]})'")
        gp += [f"set title '{name}'",
               "set xlabel 'seconds after the start'" if k == len(ran) - 1 else "unset xlabel",
               "plot " + ", ".join(lines)]
    gp += ["unset multiplot", "unset output", "reset"]

    # drift: lateness of each blink edge against the first edge + n periods
    plots = []
    for impl, name, colour in IMPLS:
        w = first_run(b, "blink", impl)
        if not w:
            continue
        edges = crossings(Output(b.tl.changes, outputs(impl)[0], w[1], w[2]), 128)
        if len(edges) < 2:
            continue
        with open(f"{odir}/drift-{impl}.dat", "w") as f:
            for n, t in enumerate(edges):
                f.write(f"{(t - edges[0]) / 1e6:.3f} {(t - edges[0]) / 1000 - n * 1000:.3f}\n")
        plots.append(f"'{odir}/drift-{impl}.dat' with linespoints pt 7 ps 0.6 "
                     f"lc rgb '{colour}' title '{name}'")
    gp += [TERM.format(h=340), f"set output '{odir}/drift.png'",
           "set title '1 Hz blink on lp5523:r: rising edge against first edge + n x 1000 ms'",
           "set xlabel 'seconds'", "set ylabel 'ms late'", "set key left top", "set grid",
           "plot " + ", ".join(plots), "unset output"]

    with open(f"{odir}/plots.gp", "w") as f:
        f.write("\n".join(gp) + "\n")
    subprocess.run(["gnuplot", f"{odir}/plots.gp"], check=True)
    for p in ("breathe", "colour", "drift"):
        print(f"  PLOT    {odir}/{p}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
