"""Seeded problem generators for the zHyperLink chapter (OSTEP-style).

``generate(seed)`` prints a problem (same seed, same problem); ``answers=True`` adds the answers
from the chapter's models; ``check(seed, part=value)`` marks answers (1%).
Shell: ``python -m widgets.zhyperlink.exercises -s 7 [-c]``.
"""
from __future__ import annotations


from ..exercise_kit import Generator, Part, Problem, diagnosis
from . import model
from . import published as P



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
            f"cache. zHPF: a hit waits {t_hit:g} us, a miss {t_miss:g} us. zHyperLink: a hit spins "
            f"{t_zhl:g} us, a miss\n"
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
    text = (f"A zHyperLink hit takes {t_zhl:g} us instead of {t_hit:g} us; a miss wastes a "
            f"{t_try:g} us attempt before\n"
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


def hit_share_needed_pct() -> float:
    """The disk-cache hit share (%) below which the Redbook expects "little to no" benefit: the top of its
    75-80% band (§3.10.6)."""
    return P.value("read_eligibility", "disk_cache_hit_threshold_high_pct", P.LIMITS)


def busy_cpu_pct() -> float:
    """LPAR busy (%) above which the Redbook expects zHyperLink's CPU impact to be small (§3.10.6)."""
    return P.value("read_cpu_cost", "busy_system_cpu_util_min_pct", P.LIMITS)


def zhl_decision(facts: dict) -> dict:
    """The rule the worked solution states, applied to a diagnosis problem's ``facts`` (per commit, ms).

    Today's latencies come from accounting: a cache hit waits QWACAWTD / QWACAWCD, a miss the rest of the
    class 3 synchronous I/O wait over the other reads. The chapter's model then predicts the class 2
    elapsed time with zHyperLink (a hit spins ``t_zhl_us``, a miss first wastes ``t_try_us``). Enable
    ``ZHYPERLINK=DATABASE`` when the cache-hit share reaches the Redbook's 80% and the predicted cut reaches
    the site's goal. Plan capacity for a CPU rise on a full-speed processor whatever the LPAR's busy: the
    Redbook measured a CPU gain only on the slower ZR1, and its busy-LPAR sentence (over 85%) is a "might",
    which decides how large the rise is likely to be, not whether to plan for one.
    """
    reads, hits = facts["sync_reads"], facts["qwacawcd"]
    t_hit = 1000.0 * facts["qwacawtd_ms"] / hits
    t_miss = 1000.0 * (facts["class3_sync_ms"] - facts["qwacawtd_ms"]) / (reads - hits)
    path = model.ReadPath(hits / reads, t_hit, t_miss, facts["t_zhl_us"], facts["t_try_us"])
    other_us = 1000.0 * (facts["class2_elapsed_ms"] - facts["class3_sync_ms"])
    cut = 100.0 * float(model.elapsed_reduction(reads, other_us, path))
    share = 100.0 * hits / reads
    return {"hit_share_pct": share, "t_hit_us": t_hit, "t_miss_us": t_miss, "cut_pct": cut,
            "candidate": bool(share >= facts["hit_share_needed_pct"] and cut >= facts["goal_pct"]),
            "cpu_rise_expected": bool(facts["full_speed_processor"])}


def _diagnose(rng, seed):
    needed = hit_share_needed_pct()
    while True:  # keep the hit share out of the Redbook's own 75-80% band, where its advice is a range
        reads = round(float(rng.uniform(3, 40)), 1)
        share = float(rng.choice([rng.uniform(0.45, 0.75), rng.uniform(0.80, 0.99), rng.uniform(0.80, 0.99)]))
        hits = round(reads * share, 1)
        if not (P.value("read_eligibility", "disk_cache_hit_threshold_low_pct", P.LIMITS) <= 100 * hits / reads
                < needed) and 0 < hits < reads:
            break
    t_hit, t_miss = float(rng.uniform(250, 900)), float(rng.uniform(1000, 4000))
    qwacawtd = round(hits * t_hit / 1000, 3)
    class3 = round(qwacawtd + (reads - hits) * t_miss / 1000, 3)
    elapsed = round(class3 + float(rng.uniform(2, 60)), 2)
    facts = {"sync_reads": reads, "qwacawcd": hits, "qwacawtd_ms": qwacawtd, "class3_sync_ms": class3,
             "class2_elapsed_ms": elapsed, "lpar_busy_pct": int(rng.integers(45, 98)),
             "goal_pct": float(rng.choice([5, 10, 15])), "t_zhl_us": model.ReadPath.t_zhl_us,
             "t_try_us": model.ReadPath.t_try_us, "hit_share_needed_pct": needed, "busy_cpu_pct": busy_cpu_pct(),
             "full_speed_processor": True}  # the text's "full-speed z16": faster than any processor measured
    d = zhl_decision(facts)
    text = (f"An OLTP workload on a full-speed z16, measured with ZHYPERLINK=DISABLE. Accounting, per commit: class 2\n"
            f"elapsed {elapsed} ms; {reads} synchronous database reads with {class3} ms of class 3 "
            "synchronous I/O wait;\n"
            f"of those reads, QWACAWCD = {hits} were disk-cache hits, with QWACAWTD = {qwacawtd} ms of wait.\n"
            f"RMF shows the LPAR {facts['lpar_busy_pct']}% busy. The site changes the storage class and "
            "the zparm only for\n"
            f"a cut of at least {facts['goal_pct']:g}% in class 2 elapsed time. Take the chapter's "
            "assumptions: a zHyperLink\n"
            f"hit spins {facts['t_zhl_us']:g} µs, and a miss wastes a {facts['t_try_us']:g} µs attempt before the "
            "normal read.")
    parts = [Part("hit_share_pct", d["hit_share_pct"], "%", "the cache-hit share of its synchronous reads"),
             Part("cut_pct", d["cut_pct"], "%", "the predicted cut in class 2 elapsed time with zHyperLink reads"),
             Part("candidate", d["candidate"], "", "1 to enable it for this workload, 0 not to"),
             Part("cpu_rise_expected", d["cpu_rise_expected"], "",
                  "1 if you should plan capacity for a rise in CPU per commit, 0 if you need not")]
    return diagnosis(seed, text, "Is this workload a candidate for ZHYPERLINK=DATABASE?", parts, facts, d,
                     _zhl_solution(facts, d))


def _zhl_solution(facts: dict, d: dict) -> str:
    """The worked solution of a diagnosis problem, in words, citing the Redbook."""
    band = P.cite(P.LIMITS, "read_eligibility", "disk_cache_hit_threshold_high_pct")
    steps = [f"Only cache hits can go the fast way. QWACAWCD / reads = {facts['qwacawcd']} / {facts['sync_reads']} = "
             f"{d['hit_share_pct']:.1f}%. Below 75-80% the Redbook expects \"little to no\" benefit ({band})."]
    steps.append(f"Today a hit waits QWACAWTD / QWACAWCD = {d['t_hit_us']:,.0f} µs and a miss the rest of the class 3 "
                 f"wait over the other reads, {d['t_miss_us']:,.0f} µs. With hits spinning "
                 f"{facts['t_zhl_us']:g} µs and "
                 f"misses paying a {facts['t_try_us']:g} µs attempt, the model predicts a {d['cut_pct']:.1f}% cut in "
                 f"class 2 elapsed time, against the site's goal of {facts['goal_pct']:g}%.")
    if d["candidate"]:
        steps.append("Decision: a candidate. Confirm with SMF 42.6 and zBNA per data set before changing the storage "
                     "class, then check QBACSYI and the class 3 wait falling while class 2 CPU rises.")
    elif d["hit_share_pct"] < facts["hit_share_needed_pct"]:
        steps.append("Decision: not a candidate: too many reads miss the controller's cache, and misses do not get "
                     "faster."
                     + (" The model's cut reaches the goal only through its assumed latencies; the measured advice "
                        "wins." if d["cut_pct"] >= facts["goal_pct"] else "")
                     + " Look at memory first: a bigger buffer pool removes the reads themselves; the Redbook "
                     "recommends zHyperLink reads where memory cannot grow "
                     f"({P.cite(P.RESULTS, 'read_conclusion', 'midrange_hardware')}).")
    else:
        steps.append("Decision: not a candidate for this site: the reads are cache hits, but they are too small a part "
                     "of the elapsed time for the cut to reach the goal.")
    busy = P.cite(P.LIMITS, "read_cpu_cost", "busy_system_cpu_util_min_pct")
    faster = P.cite(P.LIMITS, "cpu_cost", "spin_time")
    gain = P.cite(P.RESULTS, "cpu_slower_machine", "itr_change_pct")
    clean = P.value("cpu_clean_lpar_10gb_pool", "cpu_change_pct")
    bg_low, bg_high = (P.value("cpu_background_work", m) for m in ("cpu_change_low_pct", "cpu_change_high_pct"))
    cpu = (f"CPU: plan capacity for a rise. The spin is a fixed clock time, so a faster processor spends more cycles "
           f"in it ({faster}), and this z16 is faster than any processor the Redbook measured; its only CPU gain was "
           f"on the slower ZR1 ({gain}). The Redbook measured +{clean:g}% LPAR CPU on a z14 running only the workload "
           f"(28 reads per transaction) and +{bg_low:g}-{bg_high:g}% with background work, whose utilisation it does "
           "not give.")
    if facts["lpar_busy_pct"] > facts["busy_cpu_pct"]:
        cpu += (f" At {facts['lpar_busy_pct']}% busy, over its {facts['busy_cpu_pct']:g}%, the asynchronous path that "
                "zHyperLink replaces is itself expensive (interrupts, dispatch delay, cache misses), and the Redbook "
                f"says the CPU impact \"might not be significant\" ({busy}). We read that \"might\" as a reason to "
                "expect a smaller rise than on a quiet LPAR, not to plan for none; and at this busy the spin uses "
                "capacity that is already scarce.")
    steps.append(cpu)
    return "\n\n".join(steps)


_BUILDERS = {"io_profile": _io_profile, "break_even": _break_even, "hit_threshold": _hit_threshold,
             "combine": _combine, "diagnose": _diagnose}
KINDS = tuple(_BUILDERS)
GENERATOR = Generator(_BUILDERS, "Seeded zHyperLink problems: -s SEED, -c for the answers")
problem, generate, check, main = GENERATOR.problem, GENERATOR.generate, GENERATOR.check, GENERATOR.main


if __name__ == "__main__":
    raise SystemExit(main())
