"""Seeded problem generators for the fast-index-traversal chapter (OSTEP-style).

``generate(seed)`` prints a problem (same seed, same problem); ``answers=True`` adds the answers
from the chapter's models; ``check(seed, part=value)`` marks answers (1%).
Shell: ``python -m widgets.fast_index_traversal.exercises -s 7 [-c]``.
"""
from __future__ import annotations

from ..exercise_kit import Generator, Problem
from . import model



def _theory(rng, seed):
    levels = int(rng.integers(3, 6))
    rows = int(rng.choice([1, 5, 10, 50]))
    data = float(1 + (rows - 1) * round(float(rng.uniform(0.3, 1.0)), 2))
    text = (f"A random select walks a {levels}-level index and reads {data:g} data pages for its {rows} row(s).\n"
            "  (a) without_ftb and (b) with_ftb: getpages per select;\n"
            "  (c) cut_pct: the getpage reduction FTB gives, in percent.")
    before = float(model.getpages_per_select(rows, levels, data))
    after = float(model.getpages_per_select(rows, levels, data, ftb=True))
    return Problem(seed, "theory", text, {"without_ftb": before, "with_ftb": after, "cut_pct": 100 * (1 - after / before)},
                   {"without_ftb": "getpages", "with_ftb": "getpages", "cut_pct": "%"})


def _levels(rng, seed):
    rows = float(rng.choice([1e6, 5e6, 2e7, 1e8]))
    key = int(rng.integers(8, 120))
    share = float(rng.choice([0.3, 0.5, 1.0]))
    text = (f"An index has {rows:,.0f} unique keys of {key} bytes on 4 K pages with 10% free space; non-leaf\n"
            f"pages keep {share:.0%} of each key (+4-byte child pointer), leaf entries the key + a 5-byte RID.\n"
            "  (a) levels: how many levels the index has;\n"
            "  (b) saved_per_probe: getpages FTB saves on each random probe.")
    levels = float(model.index_levels(rows, key, 4096, 0.1, share))
    return Problem(seed, "levels", text, {"levels": levels, "saved_per_probe": levels - 1},
                   {"levels": "levels", "saved_per_probe": "getpages"})


def _cpu_share(rng, seed):
    gp = round(float(rng.uniform(30, 70)), 1)
    cpu = round(float(rng.uniform(0.5, 12)), 1)
    target = round(float(rng.uniform(10, 60)), 0)
    text = (f"Migrating cut getpages by {gp}% and Db2 CPU by {cpu}%.\n"
            "  (a) share_f: the getpage-linked CPU share f;\n"
            f"  (b) cpu_at_target_pct: the CPU cut that f predicts for a {target:g}% getpage cut.")
    f = cpu / gp
    return Problem(seed, "cpu_share", text, {"share_f": f, "cpu_at_target_pct": f * target},
                   {"share_f": "", "cpu_at_target_pct": "%"})


_BUILDERS = {"theory": _theory, "levels": _levels, "cpu_share": _cpu_share}
KINDS = tuple(_BUILDERS)
GENERATOR = Generator(_BUILDERS, "Seeded FTB problems: -s SEED, -c for the answers")
problem, generate, check, main = GENERATOR.problem, GENERATOR.generate, GENERATOR.check, GENERATOR.main


if __name__ == "__main__":
    raise SystemExit(main())
