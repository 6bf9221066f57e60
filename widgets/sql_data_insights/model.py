"""Models of SQL Data Insights' Enable AI Query (IBM Redbooks SG24-8536, chapter 6): pure numpy.

Enable AI Query turns the selected columns of a table into text, trains one vector per
vocabulary word on that text, and loads the vectors into a Db2 table. Each step has a size or a
cost, and each is a small function here. Units: rows, words and vocabulary words are counts;
sizes are MB of 10**6 bytes (as the Redbook's MB are); times and CPU are minutes unless the name
says seconds; shares are fractions in [0, 1].

* **Words.** Every selected value becomes one word, and every row adds one more (the
  end-of-row word): words = rows x (columns + 1). It holds exactly for 13 of the 14 printed
  data sets; the 14th is a transposed digit.
* **Text and model size.** Text = bytes per word x words; model = bytes per vector x vocabulary.
  IBM's rule of thumb counts the vocabulary as 20 clusters per numeric column plus the distinct
  categorical values, at 3,300 bytes each.
* **Training cost.** A fixed part plus a per-word part (the fixed part is zero for elapsed time
  and SQL DI CPU, see the chapter); peak memory and zFS grow with both words and vocabulary.
* **zIIP eligibility.** All of SQL DI's training CPU is zIIP-eligible but a part of fixed size per run.
* **Vocabulary growth.** Heaps' law V = K n^beta, and a version in which a share of the new rows
  only repeat values already seen.
* **Concurrency.** A run is a part that the model lets overlap freely plus CPU work spread
  over min(engines, threads x runs) engines.
* **Query cost.** A built-in function (BiF) against a user-defined function (UDF): the UDF adds
  an overhead per call; the function's own work runs in a zIIP-eligible child task.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import validation as v

CLUSTERS_PER_NUMERIC_COLUMN = 20  # IBM's rule of thumb (Redbook line 12969)
RULE_BYTES_PER_WORD = 3300.0  # IBM's rule of thumb (line 12969)
END_OF_ROW_WORDS = 1  # the extra word per row in every printed word count
MB = 1e6  # bytes; the Redbook's model sizes are 10**6-byte MB (895.03 MB = 272,296 x 3,287 B)


# --- 1. words and text --------------------------------------------------------------------------


def columns_total(numeric, categorical) -> np.ndarray:
    """Selected columns: numeric + categorical; at least one (ValueError naming both otherwise)."""
    n = v.non_negative("numeric_columns", numeric, unit="columns")
    c = v.non_negative("categorical_columns", categorical, unit="columns")
    total = n + c
    if np.any(total < 1):
        raise ValueError(f"numeric_columns + categorical_columns = {float(np.min(total)):g} is out of range; "
                         "valid range is [1, inf) columns (train on at least one column)")
    return total


def words(rows, columns) -> np.ndarray:
    """Words in the training text: rows x (columns + 1) (one word per value, one per row)."""
    r = v.in_range("rows", rows, 1, np.inf, unit="rows")
    c = v.in_range("columns", columns, 1, np.inf, unit="columns")
    return r * (c + END_OF_ROW_WORDS)


def text_mb(n_words, bytes_per_word) -> np.ndarray:
    """Size of the training text (MB): bytes per word x words."""
    w = v.non_negative("words", n_words, unit="words")
    b = v.positive("bytes_per_word", bytes_per_word, unit="bytes")
    return w * b / MB


# --- 2. vocabulary and model size ----------------------------------------------------------------


def vocabulary_rule(numeric_columns, distinct_values, clusters_per_numeric=CLUSTERS_PER_NUMERIC_COLUMN):
    """Vocabulary as IBM's rule counts it: clusters per numeric column + distinct categorical values."""
    n = v.non_negative("numeric_columns", numeric_columns, unit="columns")
    d = v.non_negative("distinct_values", distinct_values, unit="values")
    k = v.in_range("clusters_per_numeric", clusters_per_numeric, 1, 1000, unit="clusters")
    return k * n + d


def model_mb(vocabulary, bytes_per_vector) -> np.ndarray:
    """Size of the model file (the ZLOAD input, MB): one vector per vocabulary word."""
    vocab = v.non_negative("vocabulary", vocabulary, unit="words")
    b = v.positive("bytes_per_vector", bytes_per_vector, unit="bytes")
    return vocab * b / MB


def rule_of_thumb_mb(numeric_columns, distinct_values) -> np.ndarray:
    """IBM's estimate of the model size (MB): [(20 x numeric columns) + distinct values] x 3,300 bytes."""
    return model_mb(vocabulary_rule(numeric_columns, distinct_values), RULE_BYTES_PER_WORD)


# --- 3. training cost ------------------------------------------------------------------------------


def linear_cost(n_words, fixed, per_million_words) -> np.ndarray:
    """A cost (in the unit of ``fixed``) = fixed + per-million-words x words / 10**6."""
    w = v.non_negative("words", n_words, unit="words")
    f = v.non_negative("fixed", fixed)
    p = v.non_negative("per_million_words", per_million_words)
    return f + p * w / 1e6


def peak_memory_mb(n_words, vocabulary, fixed_mb, mb_per_million_words, mb_per_million_vocabulary):
    """Peak memory of a training run (MB): a fixed part + a part per word + a part per vocabulary word.

    The fixed part is the Spark driver and executors; the text and the vectors being trained add
    the rest. The coefficients are fitted (see ``fidelity``); the Redbook only says memory is "a
    function of both" text size and vocabulary size.
    """
    w = v.non_negative("words", n_words, unit="words")
    vocab = v.non_negative("vocabulary", vocabulary, unit="words")
    return (v.non_negative("fixed_mb", fixed_mb) + v.non_negative("mb_per_million_words", mb_per_million_words)
            * w / 1e6 + v.non_negative("mb_per_million_vocabulary", mb_per_million_vocabulary) * vocab / 1e6)


def zfs_mb(text, model, overhead=1.0) -> np.ndarray:
    """zFS space a training run takes (MB): the text file and the model file, times an overhead (>= 1)."""
    t = v.non_negative("text_mb", text, unit="MB")
    m = v.non_negative("model_mb", model, unit="MB")
    o = v.in_range("overhead", overhead, 1.0, 10.0)
    return o * (t + m)


def ziip_eligible_share(cpu_min, ineligible_min, runs=1) -> np.ndarray:
    """zIIP-eligible share of a training's SQL DI CPU (fraction): all of it but a part of
    ``ineligible_min`` CPU minutes per run that runs on general processors whatever the run's size.

    share = 1 - runs x ineligible / cpu; ``cpu_min`` is the measured SQL DI CPU of all ``runs`` together.
    """
    cpu = v.positive("cpu_min", cpu_min, unit="CPU minutes")
    c = v.non_negative("ineligible_min", ineligible_min, unit="CPU minutes per run")
    k = v.in_range("runs", runs, 1, 1000, unit="runs")
    return 1.0 - k * c / cpu


# --- 4. vocabulary growth --------------------------------------------------------------------------


def heaps(n, k, beta) -> np.ndarray:
    """Heaps' law: distinct words V = K n^beta after n rows (or words) of text."""
    x = v.non_negative("n", n)
    kk = v.positive("K", k)
    b = v.in_range("beta", beta, 0.0, 1.0, low_inclusive=False)
    return kk * x ** b


def heaps_fit(n, vocab) -> tuple[float, float]:
    """(K, beta) of Heaps' law by least squares on log V = log K + beta log n."""
    x = np.log(v.positive("n", n))
    y = np.log(v.positive("vocabulary", vocab))
    if x.size < 2:
        raise ValueError("heaps_fit needs at least two points")
    beta, log_k = np.polyfit(x, y, 1)
    return float(np.exp(log_k)), float(beta)


def heaps_k(n, vocab, beta) -> float:
    """The K that fits ``vocab`` best (least squares in logs) for a given beta."""
    x = np.log(v.positive("n", n))
    y = np.log(v.positive("vocabulary", vocab))
    b = float(v.in_range("beta", beta, 0.0, 1.0, low_inclusive=False))
    return float(np.exp(np.mean(y - b * x)))


def effective_rows(rows, base_rows, repeat_share) -> np.ndarray:
    """Rows that still bring new values: all up to ``base_rows``, then only the non-repeating share."""
    n = v.non_negative("rows", rows, unit="rows")
    n0 = v.positive("base_rows", base_rows, unit="rows")
    r = v.ratio("repeat_share", repeat_share)
    return np.where(n <= n0, n, n0 + (1.0 - r) * (n - n0))


def vocabulary_with_repeats(rows, base_rows, k, beta, repeat_share) -> np.ndarray:
    """Vocabulary after ``rows`` rows when a share of the rows beyond ``base_rows`` repeat old values.

    Heaps' law V = K n^beta up to ``base_rows``; beyond it only ``1 - repeat_share`` of the new
    rows are drawn from the same growing process, the rest repeat rows already seen and add
    nothing. ``repeat_share = 0`` is plain Heaps' law.
    """
    return heaps(effective_rows(rows, base_rows, repeat_share), k, beta)


def repeat_share_for(base_rows, rows, vocab, k, beta) -> float:
    """The repeat share that makes :func:`vocabulary_with_repeats` give ``vocab`` at ``rows``."""
    n0 = float(v.positive("base_rows", base_rows))
    n = float(v.positive("rows", rows))
    if n <= n0:
        raise ValueError(f"rows={n:g} must be above base_rows={n0:g}")
    kk, b = float(v.positive("K", k)), float(v.in_range("beta", beta, 0.0, 1.0, low_inclusive=False))
    fresh = (float(v.positive("vocabulary", vocab)) / kk) ** (1.0 / b)  # effective rows needed
    return float(np.clip(1.0 - (fresh - n0) / (n - n0), 0.0, 1.0))


# --- 5. concurrency ----------------------------------------------------------------------------------


def concurrent_elapsed(runs, fixed_min, work_engine_min, engines, threads) -> np.ndarray:
    """Elapsed time (min) until ``runs`` identical trainings started together have all finished.

    Each run has a part that the model lets overlap freely (``fixed_min``, an assumption, not a measurement)
    and CPU work of ``work_engine_min`` engine-minutes. Each run uses at most ``threads``
    training threads, so the runs together use min(engines, threads x runs) engines:
    T = fixed + runs x work / min(engines, threads x runs).
    """
    k = v.in_range("runs", runs, 1, 1000, unit="runs")
    f = v.non_negative("fixed_min", fixed_min, unit="min")
    w = v.positive("work_engine_min", work_engine_min, unit="engine-min")
    e = v.positive("engines", engines, unit="engines")
    t = v.in_range("threads", threads, 1, 1024, unit="threads")
    return f + k * w / np.minimum(e, t * k)


def sequential_elapsed(runs, fixed_min, work_engine_min, engines, threads) -> np.ndarray:
    """Elapsed time (min) of ``runs`` identical trainings run one after another."""
    k = v.in_range("runs", runs, 1, 1000, unit="runs")
    return k * concurrent_elapsed(1, fixed_min, work_engine_min, engines, threads)


def concurrency_fit(single_min, two_min, engines, threads) -> tuple[float, float]:
    """(fixed_min, work_engine_min) through one run's time and two concurrent runs' time.

    Two points, two unknowns: exact by construction. Needs ``threads < engines`` is not required,
    but two runs must not get more engines than one (else the fit has no unique solution).
    """
    t1 = float(v.positive("single_min", single_min, unit="min"))
    t2 = float(v.positive("two_min", two_min, unit="min"))
    e = float(v.positive("engines", engines))
    t = float(v.in_range("threads", threads, 1, 1024))
    e1, e2 = min(e, t), min(e, 2 * t)
    slope = 2.0 / e2 - 1.0 / e1  # T2 - T1 = work x slope
    if slope <= 0:
        raise ValueError(f"with {e:g} engines and {t:g} threads two runs get twice the engines of one: "
                         "the fixed and CPU parts cannot be told apart")
    work = (t2 - t1) / slope
    fixed = t1 - work / e1
    if work <= 0 or fixed < 0:
        raise ValueError(f"no fixed part >= 0 and work > 0 gives {t1:g} min alone and {t2:g} min together")
    return float(fixed), float(work)


def concurrency_saving(runs, fixed_min, work_engine_min, engines, threads) -> np.ndarray:
    """Share of the back-to-back time saved by running the trainings together (fraction)."""
    together = concurrent_elapsed(runs, fixed_min, work_engine_min, engines, threads)
    return 1.0 - together / sequential_elapsed(runs, fixed_min, work_engine_min, engines, threads)


# --- 6. query cost: built-in function against UDF -------------------------------------------------


def query_cut(invocations, udf_overhead, other_work) -> np.ndarray:
    """Share of a query's cost that a built-in function saves over a UDF (fraction).

    Units are one built-in call's cost. A query makes ``invocations`` calls and does
    ``other_work`` of ordinary SQL work; a UDF call costs ``1 + udf_overhead``:
    cut = n o / (S + n (1 + o)). It never exceeds o / (1 + o).
    """
    n = v.in_range("invocations", invocations, 1, 1000, unit="calls")
    o = v.non_negative("udf_overhead", udf_overhead, unit="x a built-in call")
    s = v.non_negative("other_work", other_work, unit="x a built-in call")
    return n * o / (s + n * (1.0 + o))


def ziip_share(invocations, other_work, eligible=1.0) -> np.ndarray:
    """zIIP share of a built-in-function query's CPU: the calls run in a zIIP-eligible child task.

    share = e n / (S + n), with ``eligible`` (e) the zIIP-eligible share of the calls' own work
    and ``other_work`` (S, in calls) the query's other SQL work, on general processors.
    """
    n = v.in_range("invocations", invocations, 1, 1000, unit="calls")
    s = v.non_negative("other_work", other_work, unit="x a built-in call")
    e = v.ratio("eligible", eligible)
    return e * n / (s + n)


# --- 7. the capacity planner -------------------------------------------------------------------------


@dataclass(frozen=True)
class Calibration:
    """The fitted constants of the capacity planner, each with the range the data support.

    A range ``(low, high)`` multiplies the central value: it is the smallest and largest ratio
    of measured to modelled seen across the eleven published data sets. The values are computed
    from the published tables by ``planner.calibration()``; nothing here is pinned.
    """

    text_bytes_per_word: float  # bytes per word of training text
    text_range: tuple[float, float]
    model_bytes_per_vector: float  # bytes per vocabulary word in the model file
    elapsed_min_per_mword: float  # minutes per million words
    elapsed_range: tuple[float, float]
    sqldi_cpu_min_per_mword: float  # CPU minutes per million words
    sqldi_cpu_range: tuple[float, float]
    db2_cpu_fixed_s: float  # seconds
    db2_cpu_s_per_mword: float  # seconds per million words
    db2_cpu_range: tuple[float, float]
    memory_fixed_mb: float
    memory_mb_per_mword: float
    memory_mb_per_mvocab: float
    memory_range: tuple[float, float]
    zfs_overhead: float  # zFS / (text + model)
    zfs_range: tuple[float, float]

    def __post_init__(self):
        for name, value in self.__dict__.items():
            if isinstance(value, tuple):
                lo, hi = value
                if not (0 < lo <= 1 <= hi):
                    raise ValueError(f"Calibration.{name}={value!r}: a range must satisfy 0 < low <= 1 <= high")
            else:
                v.positive(f"Calibration.{name}", value)


def plan(rows, numeric_columns, categorical_columns, distinct_values, cal: Calibration,
         clusters_per_numeric: float = CLUSTERS_PER_NUMERIC_COLUMN) -> dict[str, tuple[float, float, float]]:
    """Predict one Enable AI Query run: {quantity: (low, central, high)}.

    ``distinct_values`` is the number of distinct values over all selected categorical columns.
    The vocabulary's low end counts one cluster per numeric column, its central value and high
    end ``clusters_per_numeric`` (the rule's 20, an upper bound). Sizes in MB, times and SQL DI
    CPU in minutes, Db2 CPU in seconds. Raises ValueError naming a bad parameter and its range.
    """
    r = float(v.in_range("rows", rows, 1, 1e12, unit="rows"))
    cols = float(columns_total(numeric_columns, categorical_columns))
    n_num = float(numeric_columns)
    d = float(v.non_negative("distinct_values", distinct_values, unit="values"))
    if d > r * float(categorical_columns):
        raise ValueError(f"distinct_values={d:g} is out of range; valid range is [0, rows x categorical_columns] = "
                         f"[0, {r * float(categorical_columns):g}] (a value needs a row to appear in)")
    w = float(words(r, cols))
    vocab = (float(vocabulary_rule(n_num, d, 1)), float(vocabulary_rule(n_num, d, clusters_per_numeric)))
    text_c = float(text_mb(w, cal.text_bytes_per_word))
    model_lo = float(model_mb(vocab[0], cal.model_bytes_per_vector))
    model_c = float(model_mb(vocab[1], cal.model_bytes_per_vector))

    def spread(central: float, rng: tuple[float, float]) -> tuple[float, float, float]:
        return (central * rng[0], central, central * rng[1])

    text = spread(text_c, cal.text_range)
    memory_c = float(peak_memory_mb(w, vocab[1], cal.memory_fixed_mb, cal.memory_mb_per_mword,
                                    cal.memory_mb_per_mvocab))
    zfs_lo = float(zfs_mb(text[0], model_lo, cal.zfs_overhead)) * cal.zfs_range[0]
    zfs_c = float(zfs_mb(text_c, model_c, cal.zfs_overhead))
    zfs_hi = float(zfs_mb(text[2], model_mb(vocab[1], RULE_BYTES_PER_WORD), cal.zfs_overhead)) * cal.zfs_range[1]
    return {
        "words": (w, w, w),
        "vocabulary": (vocab[0], vocab[1], vocab[1]),
        "text_mb": text,
        "model_mb": (model_lo, model_c, float(rule_of_thumb_mb(n_num, d))),
        "elapsed_min": spread(float(linear_cost(w, 0.0, cal.elapsed_min_per_mword)), cal.elapsed_range),
        "sqldi_cpu_min": spread(float(linear_cost(w, 0.0, cal.sqldi_cpu_min_per_mword)), cal.sqldi_cpu_range),
        "db2_cpu_s": spread(float(linear_cost(w, cal.db2_cpu_fixed_s, cal.db2_cpu_s_per_mword)), cal.db2_cpu_range),
        "memory_mb": spread(memory_c, cal.memory_range),
        "zfs_mb": (zfs_lo, zfs_c, zfs_hi),
    }
