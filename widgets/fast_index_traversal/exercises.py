"""Seeded problem generators for the fast-index-traversal chapter (OSTEP-style).

``generate(seed)`` prints a problem (same seed, same problem); ``answers=True`` adds the answers
from the chapter's models; ``check(seed, part=value)`` marks answers (1%).
Shell: ``python -m widgets.fast_index_traversal.exercises -s 7 [-c]``.
"""
from __future__ import annotations


from ..exercise_kit import Generator, Part, Problem, diagnosis
from . import model
from . import published as P



def _theory(rng, seed):
    levels = int(rng.integers(3, 6))
    rows = int(rng.choice([1, 5, 10, 50]))
    data = float(1 + (rows - 1) * round(float(rng.uniform(0.3, 1.0)), 2))
    text = (f"A random select walks a {levels}-level index and reads {data:g} data pages for its {rows} row(s).\n"
            "  (a) without_ftb and (b) with_ftb: getpages per select;\n"
            "  (c) cut_pct: the getpage reduction FTB gives, in percent.")
    before = float(model.getpages_per_select(rows, levels, data))
    after = float(model.getpages_per_select(rows, levels, data, ftb=True))
    return Problem(seed, "theory", text,
                   {"without_ftb": before, "with_ftb": after, "cut_pct": 100 * (1 - after / before)},
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


def cpu_per_getpage_us() -> float:
    """Db2 CPU saved per getpage saved, in µs: Table 4-3 (one-way data sharing), total Db2 CPU per commit
    against getpages per commit, Db2 12 FL 510 to Db2 13 FL 501.

    An upper bound for FTB alone: the release comparison credits FTB with every other change too."""
    cpu_ms = P.value("db2_12_fl510", "total_db2_cpu_ms", P.T43) - P.value("db2_13_fl501", "total_db2_cpu_ms", P.T43)
    getpages = (P.value("db2_12_fl510", "getpage_per_commit_count", P.T43)
                - P.value("db2_13_fl501", "getpage_per_commit_count", P.T43))
    return 1000.0 * cpu_ms / getpages


def irlm_per_notify_us() -> float:
    """IRLM CPU per notify message sent, in µs: Table 4-5, the two members' mean IRLM CPU per commit against
    their mean notify messages sent per commit, Db2 12 FL 510 to Db2 13 FL 501.

    Rough: the message counts are printed to two decimals (0.00 to 0.04 per commit), and the IRLM rise
    is charged wholly to the messages."""
    def mean(run: str, metric: str) -> float:
        return (P.value(f"{run}_mem1", metric, P.T45) + P.value(f"{run}_mem2", metric, P.T45)) / 2

    irlm_ms = mean("db2_13_fl501", "irlm_cpu_ms") - mean("db2_12_fl510", "irlm_cpu_ms")
    sent = mean("db2_13_fl501", "notify_sent_per_commit_count") - mean("db2_12_fl510", "notify_sent_per_commit_count")
    return 1000.0 * irlm_ms / sent


def ftb_decision(facts: dict) -> dict:
    """The rule the worked solution states, applied to a diagnosis problem's ``facts``.

    Build an FTB for the index (an ``ACTION='A'`` row in ``SYSIBM.SYSINDEXCONTROL``) when it is eligible at
    the Db2 level and the CPU its saved getpages give back, getpages saved per second (random probes per
    second x the levels above the leaf) x µs per getpage, exceeds what its notify messages cost IRLM, page
    splits per second x the other members x µs per message. Rates in per second, CPU in µs per second.
    """
    verdict = model.eligibility([model.Column("KEY", "CHAR", int(facts["key_bytes"]))], bool(facts["unique"]),
                                str(facts["level"]), non_unique_enabled=bool(facts["non_unique_enabled"]))
    probes = facts["traversals"] / (60.0 * facts["minutes"])
    saved = probes * (facts["levels"] - 1)
    cpu_saved = saved * facts["us_per_getpage"]
    notify = facts["splits_per_s"] * (facts["members"] - 1) * facts["us_per_notify"]
    return {"eligible": verdict.eligible, "reasons": list(verdict.reasons), "getpages_saved_per_s": saved,
            "cpu_saved_us_per_s": cpu_saved, "notify_cost_us_per_s": notify,
            "enable": bool(verdict.eligible and cpu_saved > notify)}


def _diagnose(rng, seed):
    level = str(rng.choice(["Db2 12 FL 508", "Db2 13 FL 500"]))
    unique = bool(rng.random() < 0.5)
    key = int(round(10 ** rng.uniform(1.1, 2.12)))  # 13 to 132 bytes, short keys commoner
    default_yes = level.startswith("Db2 13")
    non_unique_enabled = bool(rng.random() < (0.85 if default_yes else 0.6))
    rows = float(round(10 ** rng.uniform(6, 8.7), -4))
    levels = int(model.index_levels(rows, min(key, 2048), 4096, 0.1, 0.4))
    minutes = int(rng.choice([15, 30, 60]))
    traversals = int(round(10 ** rng.uniform(1.5, 3.6) * 60 * minutes, -2))
    members = int(rng.choice([1, 2, 2, 4]))
    splits = round(float(10 ** rng.uniform(-0.5, 1.3)), 1) if members > 1 else 0.0
    facts = {"level": level, "unique": unique, "key_bytes": key, "non_unique_enabled": non_unique_enabled,
             "rows": rows, "levels": levels, "minutes": minutes, "traversals": traversals, "members": members,
             "splits_per_s": splits, "us_per_getpage": round(cpu_per_getpage_us(), 2),
             "us_per_notify": round(irlm_per_notify_us())}
    d = ftb_decision(facts)
    setting = "YES" if non_unique_enabled else "NO"
    sharing = (f"a {members}-way data-sharing group; real-time statistics show {splits:g} page "
               "splits a second on this\n"
               "index, and each split sends a notify message to every other member."
               if members > 1 else "one Db2 without data sharing (no notify messages).")
    text = (f"A {'unique' if unique else 'non-unique'} index of {rows:,.0f} rows on {level}, FTB_NON_UNIQUE_INDEX = "
            f"{setting}, INDEX_MEMORY_CONTROL = (SELECTED,AUTO).\n"
            f"Its FTB key length (Example 2-4's query) is {key} bytes; SYSINDEXES shows NLEVELS = {levels}.\n"
            f"-DISPLAY STATS(ITC) counted {traversals:,} traversals (random probes) in {minutes} "
            "minutes. The system is\n"
            f"{sharing}\n"
            f"Take the chapter's reading of Tables 4-3 and 4-5: a getpage saved gives back "
            f"{facts['us_per_getpage']} µs of Db2 CPU,\n"
            f"and a notify message costs IRLM {facts['us_per_notify']} µs.")
    parts = [Part("eligible", d["eligible"], "", "1 if the index can have an FTB at this level, 0 if not"),
             Part("getpages_saved_per_s", d["getpages_saved_per_s"], "getpages/s",
                  "getpages an FTB would save per second"),
             Part("cpu_saved_us_per_s", d["cpu_saved_us_per_s"], "µs/s", "the Db2 CPU those give back, µs per second"),
             Part("notify_cost_us_per_s", d["notify_cost_us_per_s"], "µs/s",
                  "the IRLM CPU its splits' notify messages cost, µs per second"),
             Part("enable", d["enable"], "", "1 to build the FTB, 0 not to")]
    return diagnosis(seed, text, "Decide whether to add this index to SYSIBM.SYSINDEXCONTROL (ACTION='A') for an FTB.",
                     parts, facts, d, _ftb_solution(facts, d))


def _ftb_solution(facts: dict, d: dict) -> str:
    """The worked solution of a diagnosis problem, in words, citing the Redbook."""
    limit_cite = P.cite(P.RESULTS, "db2_13_fl500", "unique_key_size_max_bytes")
    probes = facts["traversals"] / (60.0 * facts["minutes"])
    steps = []
    if d["eligible"]:
        steps.append(f"Eligibility first: at {facts['level']} this index qualifies (limits of {limit_cite}).")
    else:
        steps.append(f"Eligibility first: at {facts['level']} it does not qualify: {'; '.join(d['reasons'])} "
                     f"({limit_cite}). No FTB can be built, whatever it would save"
                     + (": on Db2 13 the limits are 128 bytes (unique) and 120 (non-unique)."
                        if facts["level"].startswith("Db2 12") else "."))
    steps.append(f"An FTB skips the {facts['levels'] - 1} levels above the leaf on each random probe: "
                 f"{probes:,.1f} probes a second x {facts['levels'] - 1} = {d['getpages_saved_per_s']:,.0f} getpages "
                 f"a second, worth {d['cpu_saved_us_per_s']:,.0f} µs of CPU a second at {facts['us_per_getpage']} µs "
                 "each. That price is an upper bound: the release comparison of "
                 f"{P.cite(P.T43, 'db2_13_fl501', 'getpage_per_commit_count')} credits FTB with every other change "
                 "too.")
    if facts["members"] > 1:
        steps.append(f"Each split notifies the {facts['members'] - 1} other member(s): {facts['splits_per_s']:g} x "
                     f"{facts['members'] - 1} x {facts['us_per_notify']} µs = {d['notify_cost_us_per_s']:,.0f} µs of "
                     f"IRLM CPU a second (a rough price: {P.cite(P.T45, 'db2_13_fl501_mem1', 'irlm_cpu_ms')} prints "
                     "the message counts to two decimals).")
    else:
        steps.append("Without data sharing there are no notify messages to pay for.")
    if d["enable"]:
        steps.append("Decision: build it (ACTION='A'). The saving exceeds the cost, and read-mostly random "
                     "indexes are what FTB is for.")
    elif d["eligible"]:
        steps.append("Decision: leave it out. It is split more than it is read: with INDEX_MEMORY_CONTROL = "
                     "(SELECTED,AUTO) give ACTION='A' rows to the read-mostly indexes only, and look again "
                     "if the insert pattern "
                     "changes (member cluster, free space).")
    else:
        steps.append("Decision: leave it out" + (", or plan it for after the migration to Db2 13."
                                                  if facts["level"].startswith("Db2 12") else "."))
    gp, cpu = -P.value("nds_results", "getpage_change_pct"), -P.value("nds_results", "db2_total_cpu_change_pct")
    steps.append(f"Either way, a getpage saved is not a CPU percent saved: FTB's own tests measured up to {gp:.0f}% "
                 f"fewer getpages and up to {cpu:.0f}% less Db2 CPU, not necessarily in the same run "
                 f"({P.cite(P.RESULTS, 'nds_results', 'db2_total_cpu_change_pct')}).")
    return "\n\n".join(steps)


_BUILDERS = {"theory": _theory, "levels": _levels, "cpu_share": _cpu_share, "diagnose": _diagnose}
KINDS = tuple(_BUILDERS)
GENERATOR = Generator(_BUILDERS, "Seeded FTB problems: -s SEED, -c for the answers")
problem, generate, check, main = GENERATOR.problem, GENERATOR.generate, GENERATOR.check, GENERATOR.main


if __name__ == "__main__":
    raise SystemExit(main())
