"""Seeded problem generators for the zHyperLink chapter (OSTEP-style).

``generate(seed)`` prints a problem (same seed, same problem); ``answers=True`` adds the answers
from the chapter's models; ``check(seed, part=value)`` marks answers (1%).
Shell: ``python -m widgets.zhyperlink.exercises -s 7 [-c]``.
"""
from __future__ import annotations


from ..exercise_kit import Generator, Problem
from . import model



def _io_profile(rng, seed):
    reads = round(float(rng.uniform(3, 40)), 1)
    other_ms = round(float(rng.uniform(5, 30)), 1)
    h = round(float(rng.uniform(0.8, 0.99)), 2)
    t_hit, t_miss, t_zhl, t_try = (float(rng.integers(200, 700)), float(rng.integers(800, 4000)),
                                   float(rng.integers(10, 40)), 10.0)
    p = model.ReadPath(h, t_hit, t_miss, t_zhl, t_try)
    before = float(model.elapsed_us(reads, other_ms * 1000, p, False)) / 1000
    after = float(model.elapsed_us(reads, other_ms * 1000, p, True)) / 1000
    text = (f"A transaction spends {other_ms} ms outside random reads and makes {reads} reads; {h:.0%} hit the disk\n"
            f"cache. zHPF: a hit waits {t_hit:g} us, a miss {t_miss:g} us. zHyperLink: a hit spins {t_zhl:g} us, a miss\n"
            f"first tries for {t_try:g} us and then goes the zHPF way.\n"
            "  (a) before_ms and (b) after_ms: the elapsed time without and with zHyperLink;\n"
            "  (c) cut_pct: the reduction, in percent.")
    return Problem(seed, "io_profile", text, {"before_ms": before, "after_ms": after,
                                              "cut_pct": 100 * (1 - after / before)},
                   {"before_ms": "ms", "after_ms": "ms", "cut_pct": "%"})


def _break_even(rng, seed):
    spin = float(rng.integers(10, 40))
    switch = float(rng.integers(5, 30))
    text = (f"On the measured processor a zHyperLink read spins {spin:g} us of CPU; the asynchronous I/O it replaces\n"
            f"cost {switch:g} us of CPU there (interrupt, re-dispatch, cache reload), scaling as 1/speed.\n"
            "  (a) break_even_speed: the processor speed (x the measured one) at which both cost the same;\n"
            "  (b) saving_us_at_half: CPU saved per read on a processor half as fast (negative = a cost).")
    return Problem(seed, "break_even", text,
                   {"break_even_speed": model.break_even_speed(spin, switch), "saving_us_at_half": 2 * switch - spin},
                   {"break_even_speed": "x", "saving_us_at_half": "us"})


def _hit_threshold(rng, seed):
    t_hit, t_zhl, t_try = float(rng.integers(200, 600)), float(rng.integers(10, 40)), float(rng.integers(20, 200))
    text = (f"A zHyperLink hit takes {t_zhl:g} us instead of {t_hit:g} us; a miss wastes a {t_try:g} us attempt before\n"
            "falling back. Ignoring everything else:\n"
            "  (a) threshold_pct: the disk-cache hit ratio below which zHyperLink costs time on average.")
    h = t_try / (t_hit - t_zhl + t_try)
    return Problem(seed, "hit_threshold", text, {"threshold_pct": 100 * h}, {"threshold_pct": "%"})


def _combine(rng, seed):
    a = round(float(rng.uniform(5, 40)), 1)
    b = round(float(rng.uniform(0.5, 15)), 1)
    text = (f"Against the same zHPF baseline, enabling zHyperLink for reads alone cuts elapsed time by {a}%,\n"
            f"for log writes alone by {b}%.\n"
            "  (a) both_pct: the predicted cut with both, if each removes its own part of the baseline's time;\n"
            "  (b) product_gap_pct: how far the product rule 1 - (1 - a)(1 - b) falls below it, in points.")
    both = 100 * float(model.combined_reduction(a / 100, b / 100))
    product = 100 * float(model.combined_reduction(a / 100, b / 100, multiplicative=True))
    return Problem(seed, "combine", text, {"both_pct": both, "product_gap_pct": both - product},
                   {"both_pct": "%", "product_gap_pct": "points"})


_BUILDERS = {"io_profile": _io_profile, "break_even": _break_even, "hit_threshold": _hit_threshold,
             "combine": _combine}
KINDS = tuple(_BUILDERS)
GENERATOR = Generator(_BUILDERS, "Seeded zHyperLink problems: -s SEED, -c for the answers")
problem, generate, check, main = GENERATOR.problem, GENERATOR.generate, GENERATOR.check, GENERATOR.main


if __name__ == "__main__":
    raise SystemExit(main())
