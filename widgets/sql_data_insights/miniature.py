"""A working miniature of Db2 13 SQL Data Insights (SQL DI), in numpy.

What SQL DI does, as the Redbook (``seeds/004``, chapter 6) describes it, and what each step
is here:

1. **Enable AI query** (line 11154): pre-process the table, train a model, load it into Db2.
   Here: :func:`enable_ai_query`, which is :func:`table_to_sentences` then :func:`train`.
2. **Table -> text** (line 11156): "Numeric data type values are clustered, and all numeric
   values are replaced with cluster identifiers. ... every numeric data type value is tagged
   with its column name and associated cluster identifier, and every categorical data type
   value is tagged with its column name." Here each row becomes one *sentence* of tokens
   ``column:value`` (``region:North``) and ``column:clusterK`` (``age:cluster1``).
   The Redbook gives neither the separator nor the clustering algorithm, so both are our
   choices: ``:`` as separator, and a deterministic 1-D k-means (Lloyd's iterations started at
   the quantiles; clusters numbered 1..k from the lowest centre up).
3. **Words and vocabulary** (lines 11223-11226): the vocabulary is "the unique values in the
   selected categorical columns and the number of clusters that are associated with the
   selected numeric columns". The word counts the Redbook prints are always rows x (columns+1):
   500,734 x 30 = 15,022,020 for 29 columns (Table 6-1, line 11444), 500,734 x 11 = 5,508,074
   for 10 columns (Table 6-2, line 11998), 1,371,968 x 9 = 12,347,712 for 8 columns (line
   12410). The extra word per row is not a vocabulary entry (the vocabulary, 272,271 words
   for 501 K rows, line 11475, is smaller than the row count), so we read it as an end-of-row marker, the
   way word2vec counts ``</s>`` for every line of its training file. :func:`word_count`
   mirrors that rule; the marker is never given a vector.
4. **Training** (line 11158): "an unsupervised model is trained on this textual
   representation ... numeric vectors are generated for every unique value". SQL DI trains a
   neural word embedding (zDNN/zAIO, line 11160). We use **PPMI + truncated SVD** of the
   token co-occurrence matrix instead, where a row is the context window (every token of a
   row co-occurs with every other token of that row, whatever the column order). Why:
   Levy & Goldberg (2014) showed that skip-gram with negative sampling (word2vec) implicitly
   factorises a shifted pointwise-mutual-information matrix, so factorising the PPMI matrix
   directly gives the same kind of vectors; and it is deterministic (no random start, no
   learning rate, no epochs), fast (the matrix is vocabulary x vocabulary, 39 x 39 here) and
   every step can be printed for a reader. The matrix is symmetric, so its SVD is an
   eigendecomposition; we keep the largest *positive* eigenvalues and scale by their square
   root, so dot products approximate PPMI itself (details and the reason in :func:`train`).
   Context-distribution smoothing 0.75 follows Levy, Goldberg & Dagan (2015).
5. **The AI functions** (lines 12998-13002, Appendix B from line 20541):
   AI_SIMILARITY is the cosine of two vectors, "a score closer to 1.0" for similar and
   "closer to -1.0" for dissimilar (:func:`ai_similarity`, :func:`most_similar`);
   AI_SEMANTIC_CLUSTER scores a candidate against "a cluster of up to three entities", "closer
   to 1.0 has a stronger affinity" (:func:`ai_semantic_cluster`, :func:`semantic_cluster`);
   AI_ANALOGY "infers the relationship between the first pair, and then assesses the
   relationship of the second pair", "a higher score indicates a better analogy"
   (:func:`ai_analogy`, :func:`analogy`). The Redbook gives no formula for the last two; ours
   are the cosine to the members' centroid and 3CosAdd (see the functions).

Values that are not in the vocabulary raise :class:`NotInVocabulary` (a ``ValueError``) whose
message names the column and the value and suggests close vocabulary entries. Db2 evidently
returns NULL instead: every appendix query filters ``... IS NOT NULL`` (line 20567 and
after). A silent NULL teaches nothing on a live page, so we raise.

Units: ages in years, annual spend in US dollars, similarity scores dimensionless in [-1, 1],
times in seconds.
"""
from __future__ import annotations

import difflib
import itertools
import math
import numbers
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import sparse

# --- the seeded retail table and what is planted in it ------------------------------------

KEY_COLUMN = "customer_id"
"""The row key. It is part of the table but not trained by default (a unique value per row
would give every customer a vector seen once, and the vocabulary would grow with the rows)."""

CATEGORICAL_COLUMNS = ("region", "segment", "channel", "product", "category", "add_on")
NUMERIC_COLUMNS = ("age", "annual_spend")
TRAINED_COLUMNS = CATEGORICAL_COLUMNS + NUMERIC_COLUMNS
"""The columns selected for Enable AI Query by default: 6 categorical + 2 numeric."""

REGIONS = ("North", "South", "East", "West")
SEGMENTS = ("student", "family", "professional", "retiree")
CHANNELS = ("store", "web", "mobile")
REGION_PRODUCTS = {
    "North": ("snow_boots", "parkas"),
    "South": ("sandals", "sunscreen"),
    "East": ("rain_boots", "umbrella"),
}
GENERIC_PRODUCTS = ("headphones", "coffee_maker", "tent")
PRODUCTS = tuple(p for pair in REGION_PRODUCTS.values() for p in pair) + GENERIC_PRODUCTS
CATEGORY_OF = {
    "snow_boots": "footwear", "sandals": "footwear", "rain_boots": "footwear",
    "parkas": "weather_gear", "sunscreen": "weather_gear", "umbrella": "weather_gear",
    "headphones": "electronics", "coffee_maker": "kitchen", "tent": "outdoor",
}
CATEGORIES = tuple(dict.fromkeys(CATEGORY_OF.values()))
ADD_ONS = ("none", "gift_wrap", "batteries", "sleeping_bag")
SIGNATURE_SHARE = 0.7  # share of North/South/East customers whose product is a regional one

# segment -> (age range in years, median annual spend in $, preferred channel or None)
SEGMENT_PROFILE = {
    "student": ((18, 25), 400.0, "mobile"),
    "family": ((30, 50), 1800.0, None),
    "professional": ((28, 55), 2600.0, None),
    "retiree": ((63, 85), 1200.0, "store"),
}
PREFERRED_CHANNEL_SHARE = 0.8

PLANTED = {
    "region_products": {
        "rule": "A customer in North, South or East has a product from the region's own pair with "
                f"probability {SIGNATURE_SHARE} (either one, equally); otherwise any of the nine products. "
                "West has no pair: West customers pick among all nine products uniformly (the control). "
                "That makes West the region that buys the three generic products most, a relationship "
                "the planting implies without stating it, and the embedding finds it too.",
        "pairs": {r: tuple(f"product:{p}" for p in ps) for r, ps in REGION_PRODUCTS.items()},
        "control_region": "region:West",
    },
    "category": {
        "rule": "category is a lookup of product (a denormalised view): footwear = snow_boots, "
                "sandals, rain_boots; weather_gear = parkas, sunscreen, umbrella; electronics = "
                "headphones; kitchen = coffee_maker; outdoor = tent.",
        "footwear": ("product:snow_boots", "product:sandals", "product:rain_boots"),
        "weather_gear": ("product:parkas", "product:sunscreen", "product:umbrella"),
    },
    "always_together": {
        "rule": "Every tent buyer takes a sleeping_bag as add_on, and only tent buyers do; other "
                "customers get none, gift_wrap or batteries at random.",
        "pair": ("product:tent", "add_on:sleeping_bag"),
    },
    "segments": {
        "rule": "student: age 18-25, median spend $400, 80% mobile; family: age 30-50, $1,800; "
                "professional: age 28-55, $2,600; retiree: age 63-85, $1,200, 80% store. "
                "Spend is log-normal (sigma 0.25) around the median.",
        "student": "segment:student",
        "student_bins": ("age:cluster1", "annual_spend:cluster1"),
    },
    "analogy": {
        "rule": "The regional products form a region x category grid (North: snow_boots/parkas, "
                "South: sandals/sunscreen, East: rain_boots/umbrella; footwear/weather_gear), so "
                "North : snow_boots :: South : sandals.",
        "query": ("region:North", "product:snow_boots", "region:South"),
        "answer": "product:sandals",
    },
}
"""The relationships :func:`make_table` plants (``planted=True``), as text and as tokens, so
that tests and the chapter can ask for them by name."""


def _check_int(name: str, value, low: int, high: float = math.inf) -> int:
    """An integer in [low, high], or ValueError naming the parameter and the range."""
    hi = "inf" if high == math.inf else f"{int(high):,}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer in [{low:,}, {hi}], got {value!r}")
    if not low <= int(value) <= high:
        raise ValueError(f"{name}={int(value)!r} is out of range; valid range is [{low:,}, {hi}]")
    return int(value)


def make_table(n_rows: int = 3000, seed: int = 0, planted: bool = True) -> pd.DataFrame:
    """A seeded table of retail customers (one row per customer), deterministic given ``seed``.

    Columns: ``customer_id`` (key), ``region``, ``segment``, ``channel``, ``product`` (the
    customer's favourite product), ``category`` (of that product), ``add_on`` (the item most
    often bought with it), ``age`` (years, integer) and ``annual_spend`` (US dollars).
    With ``planted=True`` the relationships in :data:`PLANTED` hold; with ``planted=False``
    every column is drawn independently from the same value sets (a control table on which
    any "insight" is chance).
    """
    n = _check_int("n_rows", n_rows, 1, 1_000_000)
    s = _check_int("seed", seed, 0)
    if not isinstance(planted, (bool, np.bool_)):
        raise ValueError(f"planted must be True or False, got {planted!r}")
    rng = np.random.default_rng(s)
    region = rng.choice(REGIONS, n)
    segment = rng.choice(SEGMENTS, n)
    if not planted:
        median = np.array([SEGMENT_PROFILE[g][1] for g in rng.choice(SEGMENTS, n)])
        table = {
            "region": region, "segment": segment,
            "channel": rng.choice(CHANNELS, n), "product": rng.choice(PRODUCTS, n),
            "category": rng.choice(CATEGORIES, n), "add_on": rng.choice(ADD_ONS, n),
            "age": rng.integers(18, 86, n),
            "annual_spend": np.round(median * np.exp(rng.normal(0.0, 0.25, n)), 2),
        }
    else:
        product = rng.choice(PRODUCTS, n)  # the background: anyone may buy anything
        signature = rng.random(n) < SIGNATURE_SHARE
        which = rng.integers(0, 2, n)
        for r, pair in REGION_PRODUCTS.items():
            mine = (region == r) & signature
            product[mine] = np.asarray(pair)[which[mine]]
        category = np.array([CATEGORY_OF[p] for p in product])
        add_on = np.asarray(ADD_ONS)[rng.integers(0, 3, n)]  # none, gift_wrap, batteries
        add_on[product == "tent"] = "sleeping_bag"
        lo = np.array([SEGMENT_PROFILE[g][0][0] for g in segment])
        hi = np.array([SEGMENT_PROFILE[g][0][1] for g in segment])
        age = lo + np.floor(rng.random(n) * (hi - lo + 1)).astype(int)
        median = np.array([SEGMENT_PROFILE[g][1] for g in segment])
        spend = np.round(median * np.exp(rng.normal(0.0, 0.25, n)), 2)
        channel = rng.choice(CHANNELS, n)
        prefers = rng.random(n) < PREFERRED_CHANNEL_SHARE
        for g, (_, _, preferred) in SEGMENT_PROFILE.items():
            if preferred:
                channel[(segment == g) & prefers] = preferred
        table = {"region": region, "segment": segment, "channel": channel, "product": product,
                 "category": category, "add_on": add_on, "age": age, "annual_spend": spend}
    frame = pd.DataFrame({KEY_COLUMN: [f"C{i:05d}" for i in range(1, n + 1)], **table})
    return verbatim(frame.astype({c: str for c in CATEGORICAL_COLUMNS + (KEY_COLUMN,)}))


# --- table -> text: numeric clustering and column-tagged tokens ----------------------------

END_OF_ROW = "</s>"
"""The per-row marker counted by :func:`word_count` (word2vec's end-of-line word); never a token."""


@dataclass(frozen=True, eq=False)
class NumericClusters:
    """The 1-D clusters of one numeric column: centres in ascending order and observed ranges.

    Cluster ``k`` (1-based) holds the values nearer to ``centres[k-1]`` than to any other
    centre; its token is ``f"{column}:cluster{k}"``.
    """

    column: str
    centres: np.ndarray  # ascending, in the column's unit
    lows: np.ndarray  # smallest training value in each cluster
    highs: np.ndarray  # largest training value in each cluster

    @property
    def edges(self) -> np.ndarray:
        """The k-1 boundaries: midpoints between neighbouring centres."""
        return (self.centres[1:] + self.centres[:-1]) / 2.0

    def cluster_of(self, values) -> np.ndarray:
        """The 1-based cluster number of each value (nearest centre)."""
        arr = np.asarray(values, dtype=float)
        return np.searchsorted(self.edges, arr, side="right") + 1

    def token_of(self, value) -> str:
        """The token a single numeric value is replaced with, e.g. ``age:cluster1``."""
        return f"{self.column}:cluster{int(self.cluster_of(value))}"

    def label(self, k: int) -> str:
        """Readable range of cluster ``k`` (1-based), e.g. ``18-25``."""
        lo, hi = self.lows[k - 1], self.highs[k - 1]
        fmt = "{:,.0f}" if max(abs(lo), abs(hi)) >= 100 else "{:g}"
        return f"{fmt.format(lo)}-{fmt.format(hi)}"


def cluster_numeric(values, n_clusters: int = 5, column: str = "value",
                    max_iter: int = 100) -> NumericClusters:
    """Cluster one numeric column into at most ``n_clusters`` groups by 1-D k-means.

    SQL DI clusters numeric columns before training (Redbook line 11156) without saying how;
    this is Lloyd's algorithm started at the ``(i + 1/2) / k`` quantiles, so it needs no seed.
    A column with fewer distinct values than ``n_clusters`` gets one cluster per value.
    NaN values are ignored (they become ``column:NULL`` tokens).
    """
    k = _check_int("n_clusters", n_clusters, 1, 50)
    x = np.asarray(values, dtype=float)
    x = np.sort(x[np.isfinite(x)])
    if x.size == 0:
        raise ValueError(f"column {column!r} has no finite numeric value to cluster")
    distinct = np.unique(x)
    if distinct.size <= k:
        centres = distinct
    else:
        centres = np.unique(np.quantile(x, (np.arange(k) + 0.5) / k))
        for _ in range(max_iter):
            labels = np.searchsorted((centres[1:] + centres[:-1]) / 2.0, x, side="right")
            sums = np.bincount(labels, weights=x, minlength=centres.size)
            counts = np.bincount(labels, minlength=centres.size)
            new = np.where(counts > 0, sums / np.maximum(counts, 1), centres)
            new = np.unique(new)
            if new.size == centres.size and np.array_equal(new, centres):
                break
            centres = new
    labels = np.searchsorted((centres[1:] + centres[:-1]) / 2.0, x, side="right")
    keep = np.bincount(labels, minlength=centres.size) > 0
    centres = centres[keep]
    labels = np.searchsorted((centres[1:] + centres[:-1]) / 2.0, x, side="right")
    lows = np.array([x[labels == j].min() for j in range(centres.size)])
    highs = np.array([x[labels == j].max() for j in range(centres.size)])
    return NumericClusters(column, centres, lows, highs)


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def _selected(table: pd.DataFrame, columns: Sequence[str] | None) -> list[str]:
    if not isinstance(table, pd.DataFrame):
        raise ValueError(f"table must be a pandas DataFrame, got {type(table).__name__}")
    if columns is None:
        columns = [c for c in table.columns if c != KEY_COLUMN]
    columns = list(columns)
    if not columns:
        raise ValueError("columns must name at least one column of the table")
    for c in columns:
        if c not in table.columns:
            close = difflib.get_close_matches(str(c), [str(x) for x in table.columns], n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise ValueError(f"columns: {c!r} is not a column of the table{hint}")
        if ":" in str(c):
            raise ValueError(f"columns: {c!r} contains ':', which separates column from value in a token")
    return columns


def numeric_clusters(table: pd.DataFrame, n_clusters: int = 5,
                     columns: Sequence[str] | None = None) -> dict[str, NumericClusters]:
    """The clusters of every numeric column among ``columns`` (default: all but the key)."""
    return {c: cluster_numeric(table[c], n_clusters, c)
            for c in _selected(table, columns) if _is_numeric(table[c])}


def row_to_sentence(row: Mapping, clusters: Mapping[str, NumericClusters],
                    columns: Sequence[str]) -> list[str]:
    """One row as a sentence: one token per column, in column order.

    Categorical values become ``column:value``; numeric values of a column in ``clusters``
    become ``column:clusterK``; missing values become ``column:NULL``.
    """
    words = []
    for c in columns:
        value = row[c]
        if value is None or (np.ndim(value) == 0 and pd.isna(value)):
            words.append(f"{c}:NULL")
        elif c in clusters:
            words.append(clusters[c].token_of(value))
        else:
            words.append(f"{c}:{value}")
    return words


def table_to_sentences(table: pd.DataFrame, n_clusters: int = 5,
                       columns: Sequence[str] | None = None,
                       clusters: Mapping[str, NumericClusters] | None = None) -> list[list[str]]:
    """Every row as a sentence (:func:`row_to_sentence`), vectorised over the columns.

    ``clusters`` defaults to :func:`numeric_clusters` of this table; pass the clusters of a
    trained model to encode new rows the same way.
    """
    cols = _selected(table, columns)
    if clusters is None:
        clusters = numeric_clusters(table, n_clusters, cols)
    per_column = []
    for c in cols:
        series = table[c]
        missing = series.isna().to_numpy()
        if c in clusters:
            ks = clusters[c].cluster_of(series.to_numpy(dtype=float, na_value=np.nan))
            words = np.char.add(f"{c}:cluster", ks.astype(str)).astype(object)
        else:
            words = np.char.add(f"{c}:", series.astype(str).to_numpy(dtype=str)).astype(object)
        words[missing] = f"{c}:NULL"
        per_column.append(words)
    return [list(r) for r in zip(*per_column)] if per_column else []


def word_count(sentences: Sequence[Sequence[str]]) -> int:
    """Words in the training text: every token plus one end-of-row marker per row.

    This is the Redbook's count: rows x (columns + 1) (e.g. 500,734 x 11 = 5,508,074 for 10
    columns, Table 6-2, line 11998; see the module docstring).
    """
    return sum(len(s) + 1 for s in sentences)


def _column_of(token: str) -> str:
    return token.split(":", 1)[0]


def _token_order(token: str, column_rank: Mapping[str, int]):
    column, value = token.split(":", 1)
    if value.startswith("cluster") and value[7:].isdigit():
        return (column_rank[column], 0, int(value[7:]), "")
    return (column_rank[column], 1, 0, value)


def vocabulary(sentences: Sequence[Sequence[str]]) -> dict[str, int]:
    """The unique tokens and how often each occurs, ordered by column then value.

    Numeric clusters come in cluster order (``cluster1`` first), categorical values
    alphabetically. The end-of-row marker is not a vocabulary entry (line 11226).
    """
    if isinstance(sentences, str) or any(isinstance(s, str) for s in sentences):
        raise ValueError("sentences must be a list of rows, each a list of 'column:value' tokens")
    counts = Counter(itertools.chain.from_iterable(sentences))  # keeps first-seen order
    column_rank: dict[str, int] = {}
    for t in counts:
        if not isinstance(t, str) or ":" not in t:
            raise ValueError(f"sentences: token {t!r} is not a 'column:value' string")
        column_rank.setdefault(_column_of(t), len(column_rank))
    return {t: counts[t] for t in sorted(counts, key=lambda t: _token_order(t, column_rank))}


# --- training: PPMI + truncated SVD of the row co-occurrence matrix ------------------------


@dataclass(frozen=True, eq=False)
class Embedding:
    """A trained model: one unit vector per vocabulary token (the "model table", line 11228)."""

    tokens: tuple[str, ...]
    vectors: np.ndarray  # (vocabulary, dim), every row of unit length
    counts: np.ndarray  # occurrences of each token in the training text
    clusters: Mapping[str, NumericClusters] = field(default_factory=dict)
    index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "index", {t: i for i, t in enumerate(self.tokens)})

    @property
    def dim(self) -> int:
        return self.vectors.shape[1]

    @property
    def columns(self) -> tuple[str, ...]:
        """The trained columns, in training order."""
        return tuple(dict.fromkeys(_column_of(t) for t in self.tokens))

    def column_tokens(self, column: str) -> list[str]:
        """The vocabulary entries of one column (raises if the column was not trained)."""
        _check_column(self, column)
        return [t for t in self.tokens if _column_of(t) == column]

    def vector(self, token) -> np.ndarray:
        """The unit vector of a token (any form :func:`resolve` accepts)."""
        return self.vectors[self.index[resolve(self, token)]]

    def describe(self, token: str) -> str:
        """The human value of a token: the value itself, or a cluster's range (``18-25``)."""
        column, value = token.split(":", 1)
        if column in self.clusters and value.startswith("cluster") and value[7:].isdigit():
            return self.clusters[column].label(int(value[7:]))
        return value


def ppmi(cooccurrence: np.ndarray, alpha: float = 0.75) -> np.ndarray:
    """Positive pointwise mutual information of a co-occurrence count matrix.

    PMI(w, c) = log( P(w, c) / (P(w) P_alpha(c)) ), with the context probabilities smoothed
    as count**alpha (Levy, Goldberg & Dagan 2015); negative and undefined values become 0.
    """
    counts = np.asarray(cooccurrence, dtype=float)
    total = counts.sum()
    if total <= 0:
        raise ValueError("sentences: no two tokens ever share a row, so nothing co-occurs "
                         "(train on at least two columns)")
    p_joint = counts / total
    p_word = counts.sum(axis=1) / total
    smoothed = counts.sum(axis=0) ** alpha
    p_context = smoothed / smoothed.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        pmi = np.log(p_joint / np.outer(p_word, p_context))
    return np.where(counts > 0, np.maximum(pmi, 0.0), 0.0)


def cooccurrence(sentences: Sequence[Sequence[str]], index: Mapping[str, int]) -> np.ndarray:
    """How often each pair of tokens shares a row (a row is the whole context window).

    The diagonal is zero: a token is not its own context.
    """
    lengths = np.fromiter((len(s) for s in sentences), dtype=np.int64, count=len(sentences))
    ids = np.fromiter((index[t] for s in sentences for t in s), dtype=np.int64, count=int(lengths.sum()))
    rows = np.repeat(np.arange(len(sentences)), lengths)
    incidence = sparse.csr_matrix((np.ones(ids.size), (rows, ids)), shape=(len(sentences), len(index)))
    counts = (incidence.T @ incidence).toarray()
    np.fill_diagonal(counts, 0.0)
    return counts


def train(sentences: Sequence[Sequence[str]], dim: int = 12, seed: int = 0, *,
          clusters: Mapping[str, NumericClusters] | None = None,
          alpha: float = 0.75) -> Embedding:
    """Train one unit vector per vocabulary token: PPMI + truncated (symmetric) SVD.

    Steps: co-occurrence counts within rows (:func:`cooccurrence`) -> PPMI (:func:`ppmi`),
    made symmetric as (M + M^T)/2 -> eigendecomposition ``M = Q diag(lam) Q^T`` (the SVD of a
    symmetric matrix) -> keep the ``dim`` largest eigenvalues -> vectors
    ``Q[:, :dim] * sqrt(max(lam, 0))`` -> each row scaled to unit length, so that a dot
    product is a cosine.

    Why eigenvalues by sign, not singular values by size: with ``W = Q sqrt(lam)`` the dot
    products ``W W^T`` are the best rank-``dim`` approximation of the positive part of M, so
    two values that share rows more often than chance (region:North, product:snow_boots) get
    a high cosine, and values that share partners (snow_boots, sandals: both footwear) do too.
    The PPMI matrix has a zero diagonal (a value is not its own context), hence negative
    eigenvalues; plain truncated SVD keeps those for their magnitude and then approximates
    ``|M|`` instead, which on this table ranks the East and South products as close to North
    as North's own. Components with a non-positive eigenvalue get zero weight, so a ``dim``
    above the number of positive eigenvalues (about 14-16 for the default table) changes
    nothing. Each eigenvector's sign is fixed (largest-magnitude entry positive), so the
    result does not depend on LAPACK's choice.

    ``dim`` is the vector length, 1 to the vocabulary size; the default 12 is the smallest
    that separates the regions on the default table (8 merges them). ``seed`` is accepted
    (and checked) so that the call has the shape of a stochastic trainer like SQL DI's
    neural network, but PPMI + SVD draws no random numbers: any seed gives the same, bitwise
    identical vectors. ``clusters`` (from :func:`numeric_clusters`) is stored so that queries
    can name a raw numeric value (``age:23``), the way Db2 accepts a number for a numeric
    column (``AI_SIMILARITY(..., 125 USING MODEL COLUMN ...)``, line 20645).
    """
    _check_int("seed", seed, 0)
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0.0 < float(alpha) <= 1.0:
        raise ValueError(f"alpha={alpha!r} is out of range; valid range is (0, 1]")
    sentences = list(sentences)
    if not sentences:
        raise ValueError("sentences must hold at least one row")
    vocab = vocabulary(sentences)
    tokens = tuple(vocab)
    k = _check_int("dim", dim, 1, len(tokens))
    index = {t: i for i, t in enumerate(tokens)}
    m = ppmi(cooccurrence(sentences, index), float(alpha))
    lam, q = np.linalg.eigh((m + m.T) / 2.0)
    top = np.argsort(-lam, kind="stable")[:k]
    lam, q = lam[top], q[:, top]
    q = q * np.sign(q[np.argmax(np.abs(q), axis=0), np.arange(k)])
    w = q * np.sqrt(np.maximum(lam, 0.0))
    norms = np.linalg.norm(w, axis=1, keepdims=True)
    w = np.divide(w, norms, out=np.zeros_like(w), where=norms > 0)
    return Embedding(tokens, w, np.array(list(vocab.values())), dict(clusters or {}))


def enable_ai_query(table: pd.DataFrame, dim: int = 12, n_clusters: int = 5,
                    columns: Sequence[str] | None = TRAINED_COLUMNS, seed: int = 0) -> Embedding:
    """SQL DI's Enable AI Query in one call: cluster numerics, write sentences, train.

    ``columns`` are the columns selected for training (default :data:`TRAINED_COLUMNS`; pass
    ``None`` for every column except the key).
    """
    cols = _selected(table, columns)
    clusters = numeric_clusters(table, n_clusters, cols)
    return train(table_to_sentences(table, columns=cols, clusters=clusters), dim, seed,
                 clusters=clusters)


# --- resolving what a query names -----------------------------------------------------------


class NotInVocabulary(ValueError):
    """A query named a value the model has no vector for (Db2 would return NULL)."""

    def __init__(self, token: str, column: str | None, value: str | None, suggestions: Sequence[str],
                 reason: str):
        self.token, self.column, self.value = token, column, value
        self.suggestions = list(suggestions)
        hint = f" Did you mean {', '.join(self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"{token!r} is not in the vocabulary: {reason}.{hint} "
                         "(In Db2 the AI function would return NULL.)")


def _check_column(emb: Embedding, column: str) -> None:
    """ValueError naming the column and the trained ones, unless ``column`` was trained."""
    columns = emb.columns
    if column not in columns:
        close = difflib.get_close_matches(str(column), columns, n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"column {column!r} was not trained; trained columns are "
                         f"{', '.join(columns)}.{hint}")


def resolve(emb: Embedding, item) -> str:
    """The vocabulary token a query argument names.

    ``item`` is a token string ``"column:value"`` or a ``(column, value)`` pair. For a
    numeric column a raw number (``"age:23"``, ``("age", 23)``) is mapped to its cluster
    token, as Db2 maps a numeric argument to its cluster. Raises :class:`NotInVocabulary`
    with suggestions when the column or the value is unknown.
    """
    if isinstance(item, tuple) and len(item) == 2:
        column, value = str(item[0]), item[1]
    elif isinstance(item, str):
        if ":" not in item:
            close = difflib.get_close_matches(item, [emb.describe(t) for t in emb.tokens], n=3, cutoff=0.6)
            owners = [t for t in emb.tokens if emb.describe(t) in close][:3]
            raise NotInVocabulary(item, None, item, owners,
                                  "a query names a value as 'column:value' (tokens are tagged with "
                                  "their column, Redbook SG24-8536 §6.1)")
        column, value = item.split(":", 1)
    else:
        raise ValueError(f"a query argument must be 'column:value' or a (column, value) pair, got {item!r}")
    token = f"{column}:{value}"
    if token in emb.index:
        return token
    columns = emb.columns
    if column not in columns:
        close_cols = difflib.get_close_matches(column, columns, n=1, cutoff=0.5)
        guesses = [f"{c}:{value}" for c in close_cols if f"{c}:{value}" in emb.index]
        if not guesses:
            guesses = difflib.get_close_matches(token, emb.tokens, n=3, cutoff=0.5)
        raise NotInVocabulary(token, column, str(value), guesses,
                              f"no trained column is called {column!r} (columns: {', '.join(columns)})")
    if column in emb.clusters:
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = None
        if number is not None and math.isfinite(number):
            return emb.clusters[column].token_of(number)
    entries = emb.column_tokens(column)
    values = [t.split(":", 1)[1] for t in entries]
    if column in emb.clusters:
        shown = ", ".join(f"{t} ({emb.describe(t)})" for t in entries)
        raise NotInVocabulary(token, column, str(value), [],
                              f"column {column!r} is numeric: name a number ({column}:"
                              f"{emb.clusters[column].centres[0]:.0f}) or one of its clusters: {shown}")
    close = difflib.get_close_matches(str(value), values, n=3, cutoff=0.5)
    if not close:
        lowered = {v.lower(): v for v in values}
        close = [lowered[str(value).lower()]] if str(value).lower() in lowered else []
    shown = ", ".join(values) if len(values) <= 12 else ", ".join(values[:12]) + ", ..."
    raise NotInVocabulary(token, column, str(value), [f"{column}:{v}" for v in close],
                          f"column {column!r} has no value {str(value)!r} (its values: {shown})")


# --- the three AI functions ----------------------------------------------------------------


def _cos(u: np.ndarray, v: np.ndarray) -> float:
    nu, nv = np.linalg.norm(u), np.linalg.norm(v)
    if nu == 0 or nv == 0:
        return 0.0
    return float(np.clip(u @ v / (nu * nv), -1.0, 1.0))


def ai_similarity(emb: Embedding, a, b) -> float:
    """AI_SIMILARITY: the cosine of the two vectors, in [-1, 1] (Redbook line 12998).

    Near 1.0 similar, near -1.0 dissimilar. As in Db2 (T04SIMX, line 20769), the two values
    may come from different columns.
    """
    return _cos(emb.vector(a), emb.vector(b))


def ai_semantic_cluster(emb: Embedding, members: Sequence, candidate) -> float:
    """AI_SEMANTIC_CLUSTER: how well ``candidate`` fits the cluster of 1-3 ``members``.

    The Redbook says "a cluster of up to three entities" and "a score closer to 1.0 has a
    stronger affinity" (lines 11140, 13000); its queries use one, two and three members
    (T00SEM1-3 from line 20841; line 13121). The formula is not published; ours is the cosine between the
    candidate and the centroid (mean) of the members' unit vectors, so it lies in [-1, 1].
    """
    members = [members] if isinstance(members, str) else list(members)
    if not 1 <= len(members) <= 3:
        raise ValueError(f"members must name 1 to 3 values (AI_SEMANTIC_CLUSTER takes a cluster of "
                         f"up to three), got {len(members)}")
    centre = np.mean([emb.vector(m) for m in members], axis=0)
    return _cos(emb.vector(candidate), centre)


def ai_analogy(emb: Embedding, source_1, target_1, source_2, target_2) -> float:
    """AI_ANALOGY: "source_1 is to target_1 as source_2 is to target_2", a score in [-1, 1].

    3CosAdd (Mikolov et al. 2013): the cosine between ``target_2`` and
    ``target_1 - source_1 + source_2``. We chose it over 3CosMul because its score is a cosine
    like the other two functions, and Db2's scores can be negative: the appendix filters
    ``WHERE SIMILARITY > 0.0`` (T01ANAX, line 21083). As the Db2 13 SQL reference (AI_ANALOGY,
    not the Redbook) requires, ``source_1`` and
    ``source_2`` must differ (two numbers in the same cluster count as the same value).
    """
    s1, s2 = resolve(emb, source_1), resolve(emb, source_2)
    if s1 == s2:
        raise ValueError(f"source_1 and source_2 must be different values, both are {s1!r}")
    target = emb.vector(target_1) - emb.vector(s1) + emb.vector(s2)
    return _cos(emb.vector(target_2), target)


# --- ranking helpers (the appendix's ORDER BY ... FETCH FIRST n ROWS ONLY) ------------------


def _ranking(emb: Embedding, scores: np.ndarray, candidates: list[str], n: int,
             ascending: bool = False) -> pd.DataFrame:
    n = _check_int("n", n, 1)
    order = np.argsort(scores if ascending else -scores, kind="stable")[:n]
    picked = [candidates[i] for i in order]
    return pd.DataFrame({
        "token": picked,
        "column": [_column_of(t) for t in picked],
        "value": [emb.describe(t) for t in picked],
        "score": np.round(scores[order], 4),
    })


def _candidates(emb: Embedding, column: str | None, exclude: Iterable[str]) -> list[str]:
    pool = emb.tokens if column is None else emb.column_tokens(column)
    skip = set(exclude)
    return [t for t in pool if t not in skip]


def most_similar(emb: Embedding, item, column: str | None = None, n: int = 5,
                 dissimilar: bool = False) -> pd.DataFrame:
    """The ``n`` entries of ``column`` (default: all) most similar to ``item``, best first.

    Like T00SIMX (line 20545): ``AI_SIMILARITY(...) ... ORDER BY SIMILY DESC FETCH FIRST n``,
    the item itself left out. ``dissimilar=True`` orders ascending, like T04SIMX's
    ``ORDER BY 4`` (line 20787). Columns: token, column, value, score.
    """
    token = resolve(emb, item)
    cands = _candidates(emb, column, [token])
    scores = emb.vectors[[emb.index[t] for t in cands]] @ emb.vectors[emb.index[token]]
    return _ranking(emb, np.clip(scores, -1.0, 1.0), cands, n, ascending=dissimilar)


def semantic_cluster(emb: Embedding, members: Sequence, column: str | None = None,
                     n: int = 5) -> pd.DataFrame:
    """The ``n`` entries that best fit the cluster of 1-3 ``members`` (T00SEM1-3, line 20841).

    ``column`` defaults to the members' column when they share one; members are left out,
    like the appendix's ``NOT IN (...)``.
    """
    members = [members] if isinstance(members, str) else list(members)
    tokens = [resolve(emb, m) for m in members]
    if column is None and len({_column_of(t) for t in tokens}) == 1:
        column = _column_of(tokens[0])
    cands = _candidates(emb, column, tokens)
    scores = np.array([ai_semantic_cluster(emb, tokens, c) for c in cands])
    return _ranking(emb, scores, cands, n)


def analogy(emb: Embedding, source_1, target_1, source_2, column: str | None = None,
            n: int = 5) -> pd.DataFrame:
    """Rank the ``target_2`` candidates for "source_1 : target_1 :: source_2 : ?" (T00ANAX).

    Candidates come from ``target_1``'s column unless ``column`` says otherwise, as in the
    appendix (``..., VENDOR_NAME) AS ANALOGY_SCORE``, line 21039); the three given values are
    left out.
    """
    s1, t1, s2 = (resolve(emb, x) for x in (source_1, target_1, source_2))
    cands = _candidates(emb, column or _column_of(t1), [s1, t1, s2])
    scores = np.array([ai_analogy(emb, s1, t1, s2, c) for c in cands])
    return _ranking(emb, scores, cands, n)


# --- a small query language for the live page -----------------------------------------------

QUERY_HELP = """\
similar TOKEN [COLUMN]              most similar entries (of COLUMN), best first
dissimilar TOKEN [COLUMN]           least similar entries, worst first
similarity TOKEN TOKEN              one AI_SIMILARITY score
cluster TOKEN [TOKEN [TOKEN]] [COLUMN]   AI_SEMANTIC_CLUSTER ranking for 1-3 members
analogy TOKEN TOKEN TOKEN [COLUMN]  a : b :: c : ?  (AI_ANALOGY ranking)
A TOKEN is column:value, e.g. region:North, product:snow_boots, age:23 or age:cluster1."""


class QueryError(ValueError):
    """A malformed query; the message says what was expected."""


def verbatim(frame: pd.DataFrame) -> pd.DataFrame:
    """Mark a table of the miniature's rows and answers: its names (``add_on``, ``snow_boots``) are
    the table's own column names and values, and the page shows them as they are (``widgets.tables``)."""
    frame.attrs["verbatim"] = True
    return frame


def query(emb: Embedding, text: str, n: int = 5) -> pd.DataFrame:
    """Run one line of the small query language in :data:`QUERY_HELP`; returns a DataFrame.

    Examples: ``similar region:North product``, ``analogy region:North product:snow_boots
    region:South``. Malformed input raises :class:`QueryError`; unknown values raise
    :class:`NotInVocabulary`. Both are ``ValueError``.
    """
    return verbatim(_query(emb, text, n))


def _query(emb: Embedding, text: str, n: int = 5) -> pd.DataFrame:
    if not isinstance(text, str) or not text.strip():
        raise QueryError("the query is empty; write one of:\n" + QUERY_HELP)
    verb, *args = text.split()
    verb = verb.lower()
    expected = {"similar": (1, 1), "dissimilar": (1, 1), "similarity": (2, 2), "cluster": (1, 3),
                "analogy": (3, 3)}
    if verb not in expected:
        close = difflib.get_close_matches(verb, expected, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise QueryError(f"unknown query {verb!r}{hint}; write one of:\n" + QUERY_HELP)
    column = None
    if len(args) >= 2 and ":" not in args[-1] and verb != "similarity":
        column = args.pop()  # a trailing bare word names the column to rank
    lo, hi = expected[verb]
    if not lo <= len(args) <= hi:
        want = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise QueryError(f"{verb!r} takes {want} column:value token(s), got {len(args)}; "
                         "write one of:\n" + QUERY_HELP)
    args = [resolve(emb, a) for a in args]  # unknown or untagged values: NotInVocabulary
    if column is not None:
        _check_column(emb, column)
    if verb == "similar":
        return most_similar(emb, args[0], column, n)
    if verb == "dissimilar":
        return most_similar(emb, args[0], column, n, dissimilar=True)
    if verb == "similarity":
        a, b = args
        return pd.DataFrame({"a": [a], "b": [b], "score": [round(ai_similarity(emb, a, b), 4)]})
    if verb == "cluster":
        return semantic_cluster(emb, args, column, n)
    return analogy(emb, *args, column=column, n=n)


# --- precomputed examples for the static page -----------------------------------------------

TABLE_NAME = "RETAIL.CUSTOMERS"


def _sql_value(token: str) -> str:
    column, value = token.split(":", 1)
    return f"'{value}' USING MODEL COLUMN {column.upper()}"


def example_queries(emb: Embedding, n: int = 5) -> list[tuple[str, str, pd.DataFrame]]:
    """A few queries whose answers show the planted relationships: (description, SQL, result).

    The SQL is written the way the Redbook's appendix B writes it; the result is this
    miniature's answer. Where Db2 would list every distinct numeric value (each with its
    cluster's score), the miniature lists the clusters with their ranges.
    """
    t = TABLE_NAME
    out = []
    out.append((
        "Which products go with the North region? (planted: snow_boots and parkas)",
        f"SELECT DISTINCT PRODUCT,\n       AI_SIMILARITY(PRODUCT USING MODEL COLUMN PRODUCT,\n"
        f"                     {_sql_value('region:North')}) AS SIMILARITY\nFROM {t}\n"
        f"ORDER BY SIMILARITY DESC\nFETCH FIRST {n} ROWS ONLY;",
        most_similar(emb, "region:North", "product", n)))
    out.append((
        "Which products are least like the North region? (scores near 0 mean unrelated: PPMI keeps "
        "only positive association, so the miniature seldom goes far below 0)",
        f"SELECT DISTINCT PRODUCT,\n       AI_SIMILARITY(PRODUCT USING MODEL COLUMN PRODUCT,\n"
        f"                     {_sql_value('region:North')}) AS SIMILARITY\nFROM {t}\n"
        f"ORDER BY SIMILARITY\nFETCH FIRST {n} ROWS ONLY;",
        most_similar(emb, "region:North", "product", n, dissimilar=True)))
    out.append((
        "What do tent buyers add? (planted: always a sleeping_bag)",
        f"SELECT DISTINCT ADD_ON,\n       AI_SIMILARITY(ADD_ON USING MODEL COLUMN ADD_ON,\n"
        f"                     {_sql_value('product:tent')}) AS SIMILARITY\nFROM {t}\n"
        f"ORDER BY SIMILARITY DESC\nFETCH FIRST {n} ROWS ONLY;",
        most_similar(emb, "product:tent", "add_on", n)))
    out.append((
        "Which ages go with students? (planted: every student is 18-25)",
        f"SELECT DISTINCT AGE,\n       AI_SIMILARITY(AGE USING MODEL COLUMN AGE,\n"
        f"                     {_sql_value('segment:student')}) AS SIMILARITY\nFROM {t}\n"
        f"ORDER BY SIMILARITY DESC\nFETCH FIRST {n} ROWS ONLY;",
        most_similar(emb, "segment:student", "age", n)))
    out.append((
        "Which products belong with snow_boots and sandals? (planted: both are footwear)",
        f"SELECT DISTINCT PRODUCT,\n       AI_SEMANTIC_CLUSTER(PRODUCT,\n"
        f"                           'snow_boots',\n"
        f"                           'sandals') AS CLUSTER_PROXIMITY\n"
        f"FROM {t}\nWHERE PRODUCT NOT IN ('snow_boots', 'sandals')\n"
        f"ORDER BY CLUSTER_PROXIMITY DESC\nFETCH FIRST {n} ROWS ONLY;",
        semantic_cluster(emb, ["product:snow_boots", "product:sandals"], "product", n)))
    a, b, c = PLANTED["analogy"]["query"]
    out.append((
        "North is to snow_boots as South is to ...? (planted: sandals)",
        f"SELECT DISTINCT PRODUCT,\n       AI_ANALOGY({_sql_value(a)},\n"
        f"                  {_sql_value(b)},\n                  {_sql_value(c)},\n"
        f"                  PRODUCT) AS ANALOGY_SCORE\nFROM {t}\nWHERE PRODUCT <> 'snow_boots'\n"
        f"ORDER BY ANALOGY_SCORE DESC\nFETCH FIRST {n} ROWS ONLY;",
        analogy(emb, a, b, c, n=n)))
    return [(question, sql, verbatim(answer)) for question, sql, answer in out]
