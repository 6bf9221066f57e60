"""The prose calls a number a prediction only when its ledger rows are ``predicted``.

Every sentence of a chapter's prose that says "predict", "predicts", "predicted" or "prediction" is
listed below, by study and a phrase of the sentence, with what it speaks of: the ledger rows (a
substring of their ``quantity``, and optionally of their ``condition``), which must all have the
role ``predicted``; or ``None`` and the reason the sentence is no claim about a ledger row (an
exercise, a law named in general, a configuration nobody measured). A new sentence, or a row that
changes role, fails here until the prose or this list is put right.
"""
from __future__ import annotations

import re
from functools import lru_cache

import pytest

from tools import prose_numbers as pn
from widgets import ledger
from widgets.studies import STUDIES

#: (study, phrase of the sentence) -> (quantity substring, condition substring) of the ledger rows
#: the sentence calls predicted, or None with the reason it names no ledger row.
SENTENCES: dict[tuple[str, str], tuple[str, str] | str] = {
    ("large_memory", "The *predicted* rows are of two kinds"): ("", "held out"),
    ("large_memory", "predicts the isolated ones (above)"): ("per-pool model", "held out"),
    ("large_memory", "the ± is the fit's standard error carried to each prediction"): ("per-pool model", "held out"),
    ("large_memory", "refitted on the other seven and then predict the run they never saw"):
        ("", "refitted without this run"),
    ("hit_ratio_dead", "The read rate then follows from the fit, not a prediction of it"):
        "says the IMS read rate is *not* a prediction (its rows are fitted)",
    ("hit_ratio_dead", "then the 161 GB run predicts the 638 GB run"): ("sync reads per s of a large-memory run", ""),
    ("hit_ratio_dead", "The two *predicted* rows are the bridge"): ("sync reads per s of a large-memory run", ""),
    ("hit_ratio_dead", "sync reads predicted from its total hit ratios"):
        ("sync reads per s of a large-memory run", ""),
    ("fast_index_traversal", "The three select rows are *predictions*"): ("getpage cut per random select", ""),
    ("fast_index_traversal", "and predicts the measured getpage cut"): ("getpage cut per random select", ""),
    ("zhyperlink", "the model predicts % at 7.5 reads"): ("LPAR CPU increase", "70 GB"),
    ("zhyperlink", "one additivity check (the row, *predicted*)"):
        ("elapsed-time reduction (%), ZHYPERLINK=ENABLE", "predicted by additivity"),
    ("zhyperlink", "predicts 27.8% against 27.4% measured"): ("elapsed-time reduction (%), ZHYPERLINK=ENABLE", ""),
    ("zhyperlink", "The *predictions* are few (none is fitted"): ("", "predicted"),
    ("zhyperlink", "The striped writes of 128 records (about 20%) are not a prediction"):
        "says the striped-write comparison is *not* a prediction (it is in the misses table, not the ledger)",
    ("zhyperlink", "an illustration of the missing write-size term, not a prediction"):
        "says the striped-write comparison is *not* a prediction (it is in the misses table, not the ledger)",
    ("system_recovery_boost", "doubling the engines would predict s against the measured"):
        ("forward log recovery with the boost", ""),
    ("system_recovery_boost", "the engines hypothesis predicts s, if at least 10 tasks"):
        "an extrapolation to 10 engines, which no run measured: no ledger row",
    ("system_recovery_boost", "and predict a boost with 10 engines"): "an exercise: a configuration no run measured",
    ("system_recovery_boost", "The two predictions differ by 8 s"): "the exercise's two extrapolations, not measured",
    ("system_recovery_boost", "The *predictions* are each hypothesis's fully parallel form"):
        ("forward log recovery with the boost", ""),
    ("sql_data_insights", "The other five data sets"): ("", "leave-one-out"),
    ("sql_data_insights", "*predicts* all five other data sets within"):
        ("zFS space (MB)", "predicted from the Table 6-1 fit"),
    ("sql_data_insights", "It predicts the 20- and 30-column views"):
        ("peak memory (MB)", "predicted from the Table 6-1 fit"),
    ("sql_data_insights", "the models predict a training run from a table's shape"):
        "the capacity planner, for tables nobody measured",
    ("sql_data_insights", "no one-constant size or cost reproduces these tables"):
        "how the ledger judges fitted and predicted rows, in general",
    ("sql_data_insights", "predicts the 30- and 60-column views within theirs"):
        ("SQL DI CPU, zIIP-eligible share (%)", "columns (Table 6-2"),
    ("sql_data_insights", "the best single predictor of time and CPU"):
        "'predictor' in the statistical sense: an input",
    ("sql_data_insights", "Predict the training time for a table of 20 million rows"):
        "an exercise: a table no run measured",
    ("sql_data_insights", "say what Heaps' law would have predicted"): "an exercise question",
    ("sql_data_insights", "Heaps' law predicts about 13 million words for VIEW_5"):
        "an exercise's solution: Heaps' law with the exponent of the question, no ledger row",
    ("sql_data_insights", "with VIEW_5's repeat share the model predicts a third too few words"):
        "an exercise's solution: a what-if share, no ledger row",
    ("sql_data_insights", "The word counts are arithmetic"): ("", "leave-one-out"),
    ("sql_data_insights", "every view is refitted *without* itself and predicted"): ("", "leave-one-out"),
    ("sap_banking", "we refit it five times on five runs and predict the sixth"):
        ("USL predicted without this run", ""),
    ("sap_banking", "Each held-out run's CF busy is predicted"): ("busy (%), predicted without this run", ""),
    ("sap_banking", "six *predicted* ones, each run from a fit without it"): ("predicted without this run", ""),
    ("sap_banking", "The worst predicted error in the summary"): ("CF2 (lock structures) busy", ""),
    ("sap_banking", "busy predicted against 1.6% printed"): ("CF2 (lock structures) busy", ""),
    ("sap_banking", "the lock CF at 4 processors, % printed against"): ("CF2 (lock structures) busy", ""),
}


@lru_cache(maxsize=None)
def _ledger(slug: str) -> tuple:
    """A study's ledger rows, computed once for all the parametrised cases."""
    return tuple(ledger.rows(slug))


def _sentences(study) -> list[str]:
    text = pn.prose((pn.ROOT / f"{study.page_path}.md").read_text(encoding="utf-8"))
    return [" ".join(s.split()) for s in re.split(r"(?<=[.!?:])\s+", text) if re.search(r"\bpredict", s, re.I)]


def _entry(slug: str, sentence: str):
    found = [k for k in SENTENCES if k[0] == slug and k[1] in sentence]
    return found


def test_every_prediction_sentence_is_listed_once():
    problems = []
    for study in STUDIES:
        for sentence in _sentences(study):
            found = _entry(study.slug, sentence)
            if len(found) != 1:
                problems.append(f"{study.slug}: {len(found)} entries for: {sentence[:140]}")
    assert not problems, "\n".join(problems)


def test_no_entry_is_stale():
    seen = {k for study in STUDIES for sentence in _sentences(study) for k in _entry(study.slug, sentence)}
    assert not set(SENTENCES) - seen, sorted(set(SENTENCES) - seen)


@pytest.mark.parametrize("key", [k for k, v in SENTENCES.items() if isinstance(v, tuple)], ids=lambda k: k[1][:40])
def test_what_the_prose_calls_a_prediction_is_a_predicted_row(key):
    slug, _ = key
    quantity, condition = SENTENCES[key]
    rows = [r for r in _ledger(slug) if quantity in r.quantity and condition in r.condition]
    assert rows, f"{slug}: no ledger row with quantity ~ {quantity!r} and condition ~ {condition!r}"
    wrong = [f"{r.quantity} | {r.condition}: {r.role}" for r in rows if r.role != "predicted"]
    assert not wrong, "the prose calls these predictions:\n" + "\n".join(wrong)


def test_the_reasons_are_given():
    assert all(v.strip() for v in SENTENCES.values() if isinstance(v, str))
