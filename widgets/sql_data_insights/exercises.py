"""Seeded problem generators for the SQL Data Insights chapter (OSTEP-style).

``generate(seed)`` prints a problem (same seed, same problem); ``answers=True`` adds the answers
from the chapter's models; ``check(seed, part=value)`` marks answers (1%).
Shell: ``python -m widgets.sql_data_insights.exercises -s 7 [-c]``.
"""
from __future__ import annotations

import numpy as np

from ..exercise_kit import Generator, Part, Problem, diagnosis
from . import model, planner
from . import published as P


def _words_and_text(rng, seed):
    rows = int(rng.integers(2, 400)) * 250_000
    numeric, categorical = int(rng.integers(1, 20)), int(rng.integers(1, 30))
    b = round(float(rng.uniform(15, 30)), 1)
    n_words = float(model.words(rows, numeric + categorical))
    text = (f"An AI object has {rows:,} rows; {numeric} numeric and {categorical} categorical columns are selected.\n"
            f"Its training text averages {b} bytes per word (MB = 10^6 bytes).\n"
            "  (a) words: the words in the training text (remember the word that ends each row);\n"
            "  (b) text_mb: the size of the training text.")
    return Problem(seed, "words_and_text", text, {"words": n_words, "text_mb": float(model.text_mb(n_words, b))},
                   {"words": "words", "text_mb": "MB"})


def _model_size(rng, seed):
    numeric = int(rng.integers(1, 40))
    distinct = int(rng.integers(20, 5000)) * 1000
    clusters = int(rng.integers(2, 21))
    per_word = round(planner.calibration().model_bytes_per_vector)
    actual = float(model.model_mb(distinct + clusters * numeric, per_word))
    rule = float(model.rule_of_thumb_mb(numeric, distinct))
    text = (f"A table has {numeric} numeric columns and {distinct:,} distinct values over its categorical columns.\n"
            f"Training finds {clusters} clusters in each numeric column, and each vocabulary word takes "
            f"{per_word:,} bytes.\n"
            "  (a) rule_mb: IBM's rule-of-thumb model size, [(20 x numeric) + distinct] x 3,300 bytes;\n"
            "  (b) actual_mb: the model size training produces;\n"
            "  (c) overestimate_pct: how far the rule overestimates it, in percent.")
    return Problem(seed, "model_size", text, {"rule_mb": rule, "actual_mb": actual,
                                              "overestimate_pct": 100 * (rule / actual - 1)},
                   {"rule_mb": "MB", "actual_mb": "MB", "overestimate_pct": "%"})


def _training_time(rng, seed):
    rows = int(rng.integers(1, 200)) * 1_000_000
    columns = int(rng.integers(5, 60))
    cal = planner.calibration()  # min per million words: the Table 6-1 fit, and the fastest and slowest data set
    central = round(cal.elapsed_min_per_mword, 4)
    low, high = (round(central * r, 3) for r in cal.elapsed_range)
    n_words = float(model.words(rows, columns))
    text = (f"A training run will process {rows:,} rows of {columns} columns. Table 6-1 trains at {central} min per\n"
            f"million words; across the 11 published data sets the pace runs from {low} to {high}.\n"
            "  (a) words_m: millions of words in the text;\n"
            "  (b) central_min, (c) low_min and (d) high_min: the predicted elapsed time and its range.")
    rate = n_words / 1e6
    return Problem(seed, "training_time", text, {"words_m": rate, "central_min": central * rate,
                                                 "low_min": low * rate, "high_min": high * rate},
                   {"words_m": "M words", "central_min": "min", "low_min": "min", "high_min": "min"})


def _concurrency(rng, seed):
    engines = float(rng.choice([4, 8, 16]))
    fixed = round(float(rng.uniform(0.5, 5.0)), 2)
    per_run = round(float(rng.uniform(1.0, 8.0)), 2)  # CPU part of one run, in minutes on all engines
    single, two = round(fixed + per_run, 2), round(fixed + 2 * per_run, 2)
    f, work = model.concurrency_fit(single, two, engines, engines)
    three = float(model.concurrent_elapsed(3, f, work, engines, engines))
    text = (f"On {engines:g} engines, one training run ({engines:g} threads) takes {single} min; two identical runs\n"
            f"started together both finish after {two} min. Model a run as a part that overlaps freely with\n"
            "the other runs (an assumption) plus CPU work shared by all the runs.\n"
            "  (a) fixed_min: the freely overlapping part; (b) work_engine_min: a run's CPU work in engine-minutes;\n"
            "  (c) three_min: three runs together; (d) saving_pct: what two together save against back to back.")
    return Problem(seed, "concurrency", text,
                   {"fixed_min": f, "work_engine_min": work, "three_min": three,
                    "saving_pct": 100 * float(model.concurrency_saving(2, f, work, engines, engines))},
                   {"fixed_min": "min", "work_engine_min": "engine-min", "three_min": "min", "saving_pct": "%"})


def _vocabulary(rng, seed):
    n0 = int(rng.integers(5, 50)) * 1_000_000
    v0 = int(rng.integers(5, 80)) * 100_000
    beta = round(float(rng.uniform(0.5, 0.95)), 2)
    factor = round(float(rng.uniform(2, 6)), 1)
    share = round(float(rng.uniform(0.5, 0.99)), 2)
    k = v0 / n0 ** beta
    n1 = n0 * factor
    heaps_only = float(model.heaps(n1, k, beta))
    repeats = float(model.vocabulary_with_repeats(n1, n0, k, beta, share))
    text = (f"A view of {n0:,} rows has {v0:,} vocabulary words, and its vocabulary follows Heaps' "
            f"law V = K n^{beta}.\n"
            f"It grows to {factor}x the rows, but {share:.0%} of the new rows repeat values already in the view.\n"
            "  (a) heaps_v: the vocabulary if no new row repeated anything;\n"
            "  (b) repeat_v: the vocabulary with the repeats (only the rest of the new rows count);\n"
            "  (c) growth_pct: the vocabulary's growth with the repeats, in percent.")
    return Problem(seed, "vocabulary", text, {"heaps_v": heaps_only, "repeat_v": repeats,
                                              "growth_pct": 100 * (repeats / v0 - 1)},
                   {"heaps_v": "words", "repeat_v": "words", "growth_pct": "%"})


def _transposed(rng, seed):
    rows = int(rng.integers(1_000_000, 120_000_000))
    columns = int(rng.integers(5, 40))
    correct = int(model.words(rows, columns))
    digits = list(str(correct))
    candidates = [i for i in range(len(digits) - 1)
                  if digits[i] != digits[i + 1] and not (i == 0 and digits[1] == "0")]
    i = candidates[int(rng.integers(len(candidates)))]
    digits[i], digits[i + 1] = digits[i + 1], digits[i]
    printed = int("".join(digits))
    text = (f"A table prints {rows:,} rows, {columns} selected columns and {printed:,} words in the training text.\n"
            "Two adjacent digits of one number were swapped when the table was typeset.\n"
            "  (a) words: the word count the table should print;\n"
            "  (b) error_pct: how far the printed count is from it, in percent (signed).")
    return Problem(seed, "transposed", text, {"words": float(correct), "error_pct": 100 * (printed / correct - 1)},
                   {"words": "words", "error_pct": "%"})


def _query_cost(rng, seed):
    overhead = round(float(rng.uniform(1, 12)), 1)
    other = round(float(rng.uniform(0.05, 3)), 2)
    calls = int(rng.integers(1, 6))
    text = (f"A query calls an AI function {calls} time(s) and does other SQL work worth {other} calls. As a UDF each\n"
            f"call costs {overhead} more calls' worth of CPU than the built-in function does. The function's work\n"
            "runs on zIIPs; the other SQL work does not.\n"
            "  (a) cpu_cut_pct: the CPU the built-in function saves, in percent;\n"
            "  (b) ziip_pct: the zIIP share of the built-in query's CPU;\n"
            "  (c) bound_pct: the largest cut any query could see with this overhead.")
    return Problem(seed, "query_cost", text,
                   {"cpu_cut_pct": 100 * float(model.query_cut(calls, overhead, other)),
                    "ziip_pct": 100 * float(model.ziip_share(calls, other)),
                    "bound_pct": 100 * overhead / (1 + overhead)},
                   {"cpu_cut_pct": "%", "ziip_pct": "%", "bound_pct": "%"})


def plan_decision(facts: dict) -> dict:
    """The rule the worked solution states, applied to a diagnosis problem's ``facts``.

    Training threads: as many as asked, but never more than the active cores. Plan on the high end of
    every range: elapsed hours = words x the slowest measured pace; the run fits when the planner's high
    peak memory and high zFS both fit under what is set aside (GB).
    """
    words_m = facts["rows"] * (facts["numeric"] + facts["categorical"] + 1) / 1e6
    memory_ok = facts["memory_high_gb"] <= facts["memory_limit_gb"]
    zfs_ok = facts["zfs_high_gb"] <= facts["zfs_free_gb"]
    return {"words_m": words_m, "high_hours": words_m * facts["pace_high"] / 60.0,
            "threads": min(facts["threads_asked"], facts["active_cores"]), "memory_ok": memory_ok,
            "zfs_ok": zfs_ok, "fits": bool(memory_ok and zfs_ok)}


def _diagnose(rng, seed):
    rows = int(round(10 ** rng.uniform(5.7, 7.7), -4))  # 0.5 to 50 million: within the measured words
    numeric, categorical = int(rng.integers(1, 16)), int(rng.integers(2, 41))
    distinct = int(round(10 ** rng.uniform(4, np.log10(min(rows * categorical, 2e7))), -3))
    cal = planner.calibration()
    plan = model.plan(rows, numeric, categorical, distinct, cal)
    central = round(cal.elapsed_min_per_mword, 4)
    gb = P.MB_PER_GB
    facts = {"rows": rows, "numeric": numeric, "categorical": categorical, "distinct": distinct,
             "active_cores": int(rng.choice([4, 6, 8, 12, 16])), "threads_asked": int(rng.choice([8, 12, 16, 32])),
             "memory_limit_gb": int(rng.choice([16, 24, 32, 48, 64])), "zfs_free_gb": int(rng.integers(2, 81)),
             "pace_low": round(central * cal.elapsed_range[0], 3), "pace_central": central,
             "pace_high": round(central * cal.elapsed_range[1], 3),
             "memory_high_gb": round(plan["memory_mb"][2] / gb, 1),
             "memory_central_gb": round(plan["memory_mb"][1] / gb, 1),
             "zfs_high_gb": round(plan["zfs_mb"][2] / gb, 1), "zfs_central_gb": round(plan["zfs_mb"][1] / gb, 1)}
    d = plan_decision(facts)
    text = (f"You are asked to train an SQL DI model on a view of {rows:,} rows with {numeric} numeric and "
            f"{categorical} categorical\ncolumns selected ({distinct:,} distinct categorical values). The SQL DI "
            f"LPAR has {facts['active_cores']} active zIIP cores; the\nrequest asks for "
            f"{facts['threads_asked']} training "
            f"threads. WLM caps SQL DI's memory at {facts['memory_limit_gb']} GB, and its zFS has "
            f"{facts['zfs_free_gb']} GB "
            "free.\nThe chapter's capacity planner (low - central - high) gives, for this view:\n"
            f"  peak memory  {facts['memory_central_gb']:,} GB central, {facts['memory_high_gb']:,} GB high;\n"
            f"  zFS          {facts['zfs_central_gb']:,} GB central, {facts['zfs_high_gb']:,} GB high;\n"
            f"  pace         {facts['pace_low']} - {central} - {facts['pace_high']} elapsed minutes per million words "
            "(eight threads).")
    parts = [Part("words_m", d["words_m"], "M words", "millions of words in the training text"),
             Part("high_hours", d["high_hours"], "h", "the elapsed time to plan for, in hours"),
             Part("threads", d["threads"], "threads", "the training threads to configure"),
             Part("fits", d["fits"], "",
                  "1 if the run fits the memory cap and the zFS as they are, 0 if something must change")]
    return diagnosis(seed, text, "Plan the run:", parts, facts, d, _plan_solution(facts, d))


def _plan_solution(facts: dict, d: dict) -> str:
    """The worked solution of a diagnosis problem, in words, citing the Redbook."""
    columns = facts["numeric"] + facts["categorical"]
    advice = P.cite(P.QUOTED, "training_usage", "threads_max")
    per_word = {c: P.value(P.COLUMNS, f"cols_{c}", "sqldi_cpu_min")
                / (P.value(P.COLUMNS, f"cols_{c}", "words_count") / 1e6)
                for c in (10, 30)}
    steps = [f"Words: each row becomes {columns} words plus the one that ends it: {facts['rows']:,} x {columns + 1} = "
             f"{d['words_m']:,.1f} million.",
             f"Time: the eleven published data sets trained at {facts['pace_low']} to {facts['pace_high']} minutes per "
             f"million words, so plan for the slow end: {d['words_m']:,.1f} x {facts['pace_high']} / 60 = "
             f"{d['high_hours']:,.1f} h (central {d['words_m'] * facts['pace_central'] / 60:,.1f} "
             "h). A wide view lands "
             f"near the slow end: SQL DI CPU per million words rose from {per_word[10]:.2f} min at 10 columns to "
             f"{per_word[30]:.2f} at 30 ({P.cite(P.COLUMNS, 'cols_30', 'sqldi_cpu_min')}).",
             f"Threads: {facts['threads_asked']} asked, {facts['active_cores']} active cores: "
             f"configure {d['threads']}. "
             f"The Redbook does not recommend more threads than active cores ({advice}); extra threads only queue."
             + (" With fewer than the eight threads the paces were measured with, expect the slow end or worse."
                if d["threads"] < 8 else "")]
    checks = []
    checks.append(f"memory {facts['memory_high_gb']:,} GB high against a {facts['memory_limit_gb']} GB cap: "
                  + ("fits" if d["memory_ok"] else "does not fit"))
    checks.append(f"zFS {facts['zfs_high_gb']:,} GB high against {facts['zfs_free_gb']} GB free: "
                  + ("fits" if d["zfs_ok"] else "does not fit"))
    steps.append("Resources, at the high end because Table_1's two measurements of peak memory alone differ by 17%: "
                 + "; ".join(checks) + ".")
    if d["fits"]:
        steps.append("Decision: it fits as set up. Keep the WLM cap (SQL DI takes every processor "
                     "and byte it is given, "
                     "the same section warns), with Spark below SQL DI and SQL DI below Db2.")
    else:
        steps.append("Decision: something must change before the run. Leave out columns no one will query (each one "
                     "removes a word from every row and its values from the vocabulary), "
                     + ("raise the WLM memory cap, " if not d["memory_ok"] else "")
                     + ("grow the zFS, " if not d["zfs_ok"] else "")
                     + "or train on a sample first and scale from your own pace.")
    return "\n\n".join(steps)


_BUILDERS = {"words_and_text": _words_and_text, "model_size": _model_size, "training_time": _training_time,
             "concurrency": _concurrency, "vocabulary": _vocabulary, "transposed": _transposed,
             "query_cost": _query_cost, "diagnose": _diagnose}
KINDS = tuple(_BUILDERS)
GENERATOR = Generator(_BUILDERS, "Seeded SQL Data Insights problems: -s SEED, -c for the answers")
problem, generate, check, main = GENERATOR.problem, GENERATOR.generate, GENERATOR.check, GENERATOR.main


if __name__ == "__main__":
    raise SystemExit(main())
