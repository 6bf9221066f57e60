"""The SQL Data Insights miniature: planted relationships come out on top (and chance ones do
not), the Redbook's word count, determinism, and clear errors for unknown values and bad input."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from widgets.sql_data_insights import miniature as m


@pytest.fixture(scope="module")
def planted():
    return m.enable_ai_query(m.make_table())


@pytest.fixture(scope="module")
def control():
    """The same value sets drawn independently: whatever it "finds" is chance."""
    return m.enable_ai_query(m.make_table(planted=False))


def _margin(frame: pd.DataFrame, winners) -> float:
    """Lowest score among ``winners`` minus the highest score among everything else."""
    scores = dict(zip(frame.token, frame.score))
    return min(scores[w] for w in winners) - max(v for t, v in scores.items() if t not in winners)


# --- the planted relationships rank on top, and only because they were planted ---------------


@pytest.mark.parametrize("region", sorted(m.REGION_PRODUCTS))
def test_each_region_s_own_products_rank_above_every_other_product(planted, control, region):
    pair = m.PLANTED["region_products"]["pairs"][region]
    ranked = m.most_similar(planted, f"region:{region}", "product", n=20)
    assert set(ranked.token[:2]) == set(pair)
    assert _margin(ranked, pair) > 0.5
    unplanted = _margin(m.most_similar(control, f"region:{region}", "product", n=20), pair)
    assert unplanted < 0.1 < _margin(ranked, pair) - 0.4


def test_the_control_region_leans_to_the_generic_products_it_buys_most(planted):
    top3 = m.most_similar(planted, "region:West", "product", n=3)
    assert set(top3.token) == {f"product:{p}" for p in m.GENERIC_PRODUCTS}


@pytest.mark.parametrize("query, answer", [
    (("region:North", "product:snow_boots", "region:South"), "product:sandals"),
    (("region:North", "product:parkas", "region:South"), "product:sunscreen"),
    (("region:South", "product:sandals", "region:East"), "product:rain_boots"),
    (("region:East", "product:umbrella", "region:North"), "product:parkas"),
])
def test_analogies_across_the_region_by_category_grid(planted, control, query, answer):
    ranked = m.analogy(planted, *query, n=20)
    assert ranked.token[0] == answer
    assert _margin(ranked, [answer]) > 0.2
    assert _margin(m.analogy(control, *query, n=20), [answer]) < 0.1


def test_the_planted_analogy_is_the_one_in_PLANTED(planted):
    assert m.analogy(planted, *m.PLANTED["analogy"]["query"]).token[0] == m.PLANTED["analogy"]["answer"]


def test_the_footwear_cluster_takes_the_third_shoe_first(planted, control):
    members = ["product:snow_boots", "product:sandals"]
    ranked = m.semantic_cluster(planted, members, n=20)
    assert "product:snow_boots" not in set(ranked.token)  # members are left out, like NOT IN (...)
    assert ranked.token[0] == "product:rain_boots"
    assert _margin(ranked, ["product:rain_boots"]) > 0.1
    assert _margin(m.semantic_cluster(control, members, n=20), ["product:rain_boots"]) < 0.05


def test_a_region_s_products_point_back_to_the_region(planted, control):
    members = list(m.PLANTED["region_products"]["pairs"]["North"])
    for emb, low in ((planted, 0.9), (control, None)):
        scores = {r: m.ai_semantic_cluster(emb, members, f"region:{r}") for r in m.REGIONS}
        best_other = max(v for r, v in scores.items() if r != "North")
        if low is not None:
            assert scores["North"] > low and scores["North"] - best_other > 0.5
        else:
            assert scores["North"] - best_other < 0.3


def test_tent_buyers_always_add_a_sleeping_bag(planted, control):
    tent, bag = m.PLANTED["always_together"]["pair"]
    ranked = m.most_similar(planted, tent, "add_on")
    assert ranked.token[0] == bag and _margin(ranked, [bag]) > 0.9
    assert m.ai_similarity(planted, tent, bag) > 0.99
    # independent columns: whatever comes first comes first by chance, and by far less
    assert _margin(m.most_similar(control, tent, "add_on"), [ranked.token[0]]) < 0.5


def test_students_sit_with_the_youngest_and_lowest_spending_clusters(planted, control):
    student = m.PLANTED["segments"]["student"]
    for column, token in zip(m.NUMERIC_COLUMNS, m.PLANTED["segments"]["student_bins"]):
        ranked = m.most_similar(planted, student, column)
        assert ranked.token[0] == token and _margin(ranked, [token]) > 0.9
        assert _margin(m.most_similar(control, student, column), [token]) < 0.2
    assert planted.describe("age:cluster1") == "18-25"


# --- table -> text, the way the Redbook counts it ---------------------------------------------


def test_tokens_are_tagged_with_their_column_and_numerics_with_a_cluster():
    table = m.make_table(50, seed=3)
    sentence = m.table_to_sentences(table, columns=m.TRAINED_COLUMNS)[0]
    row = table.iloc[0]
    assert sentence[:6] == [f"{c}:{row[c]}" for c in m.CATEGORICAL_COLUMNS]
    assert all(t.split(":")[1].startswith("cluster") for t in sentence[6:])
    clusters = m.numeric_clusters(table, columns=m.TRAINED_COLUMNS)
    assert sentence == m.row_to_sentence(row, clusters, m.TRAINED_COLUMNS)


def test_clusters_are_numbered_from_the_lowest_centre_and_cover_the_training_values():
    values = np.r_[np.full(50, 20.0), np.full(50, 40.0), np.full(50, 80.0)] + np.tile([0, 1, 2, 3, 4], 30)
    clusters = m.cluster_numeric(values, 3, "age")
    assert [clusters.label(k) for k in (1, 2, 3)] == ["20-24", "40-44", "80-84"]
    assert clusters.token_of(21) == "age:cluster1" and clusters.token_of(1000) == "age:cluster3"
    assert m.cluster_numeric([5, 5, 7], 4, "x").centres.tolist() == [5.0, 7.0]  # fewer values than k


@pytest.mark.parametrize("n_rows", [1, 7, 1234])
def test_words_are_rows_times_columns_plus_one(n_rows):
    table = m.make_table(n_rows, seed=11)
    sentences = m.table_to_sentences(table)  # every column but the key: 8
    assert m.word_count(sentences) == n_rows * (len(m.TRAINED_COLUMNS) + 1)


@pytest.mark.parametrize("rows, columns, words", [
    (500_734, 29, 15_022_020),  # Table 6-1, VIEW_1
    (500_734, 10, 5_508_074),  # Table 6-2, VIEW_1 (5 numeric / 5 categorical)
    (500_734, 20, 10_515_414),
    (500_734, 30, 15_522_754),
    (500_734, 60, 30_544_774),  # 32 / 28
    (1_371_968, 8, 12_347_712),  # the appendix table: 7 categorical + 1 numeric
])
def test_the_word_rule_reproduces_the_redbook_counts(rows, columns, words):
    sentence = [f"c{i}:v" for i in range(columns)]
    assert m.word_count([sentence] * rows) == words


def test_the_vocabulary_is_unique_values_plus_clusters(planted):
    table = m.make_table()
    sentences = m.table_to_sentences(table, columns=m.TRAINED_COLUMNS)
    vocab = m.vocabulary(sentences)
    expected = sum(table[c].nunique() for c in m.CATEGORICAL_COLUMNS) + 5 * len(m.NUMERIC_COLUMNS)
    assert len(vocab) == expected == len(planted.tokens) == 39
    assert sum(vocab.values()) == len(table) * len(m.TRAINED_COLUMNS)
    assert m.END_OF_ROW not in vocab
    assert list(vocab)[:4] == ["region:East", "region:North", "region:South", "region:West"]


# --- determinism ------------------------------------------------------------------------------


def test_same_seed_same_table_different_seed_different_table():
    pd.testing.assert_frame_equal(m.make_table(500, seed=7), m.make_table(500, seed=7))
    assert not m.make_table(500, seed=7).equals(m.make_table(500, seed=8))


def test_same_input_gives_bitwise_identical_vectors():
    table = m.make_table(seed=5)
    one, two = m.enable_ai_query(table, seed=1), m.enable_ai_query(table, seed=1)
    assert one.tokens == two.tokens and one.vectors.tobytes() == two.vectors.tobytes()
    # PPMI + SVD draws no random numbers: the seed is checked but changes nothing
    assert m.enable_ai_query(table, seed=99).vectors.tobytes() == one.vectors.tobytes()


def test_vectors_are_unit_length_and_scores_are_cosines(planted):
    assert np.allclose(np.linalg.norm(planted.vectors, axis=1), 1.0)
    assert m.ai_similarity(planted, "region:North", "region:North") == pytest.approx(1.0)
    a, b = "region:North", "product:parkas"
    assert m.ai_similarity(planted, a, b) == pytest.approx(m.ai_similarity(planted, b, a))
    ranked = m.most_similar(planted, a, n=50)
    assert ranked.score.is_monotonic_decreasing and ranked.score.between(-1, 1).all()
    assert a not in set(ranked.token) and len(ranked) == len(planted.tokens) - 1
    assert m.most_similar(planted, a, "product", n=3, dissimilar=True).score.is_monotonic_increasing


# --- values the model does not know -----------------------------------------------------------


def test_an_unknown_value_names_itself_its_column_and_close_entries(planted):
    with pytest.raises(m.NotInVocabulary) as err:
        m.ai_similarity(planted, "region:Nort", "product:tent")
    assert isinstance(err.value, ValueError)
    assert "'Nort'" in str(err.value) and "'region'" in str(err.value)
    assert err.value.suggestions == ["region:North"] and "region:North" in str(err.value)


def test_an_unknown_column_suggests_the_nearest_one(planted):
    with pytest.raises(m.NotInVocabulary, match="regon") as err:
        m.most_similar(planted, "regon:North")
    assert err.value.suggestions == ["region:North"]


def test_an_untagged_value_suggests_its_tagged_token(planted):
    with pytest.raises(m.NotInVocabulary, match="column:value") as err:
        m.query(planted, "similar North")
    assert "region:North" in err.value.suggestions


def test_a_numeric_column_takes_numbers_or_cluster_names(planted):
    assert m.resolve(planted, "age:23") == "age:cluster1"
    assert m.resolve(planted, ("annual_spend", 300)) == "annual_spend:cluster1"
    with pytest.raises(m.NotInVocabulary, match=r"numeric.*age:cluster1 \(18-25\)"):
        m.resolve(planted, "age:old")


def test_analogy_rejects_the_same_source_twice_even_via_a_cluster(planted):
    with pytest.raises(ValueError, match="source_1 and source_2"):
        m.ai_analogy(planted, "age:20", "segment:student", "age:24", "segment:family")


# --- the query line for the live page ---------------------------------------------------------


@pytest.mark.parametrize("text, first", [
    ("similar region:North product", "product:snow_boots"),
    ("cluster product:snow_boots product:sandals", "product:rain_boots"),
    ("analogy region:North product:snow_boots region:South", "product:sandals"),
    ("similar annual_spend:300 segment", "segment:student"),
])
def test_queries_answer_with_a_ranking(planted, text, first):
    assert m.query(planted, text).token[0] == first


def test_similarity_query_gives_one_score(planted):
    frame = m.query(planted, "similarity product:tent add_on:sleeping_bag")
    assert frame.score[0] > 0.99


@pytest.mark.parametrize("text, match", [
    ("", "empty"),
    ("simlar region:North", "did you mean 'similar'"),
    ("analogy region:North product:snow_boots", "takes 3"),
    ("cluster product:tent product:parkas product:sandals product:umbrella", "1 to 3"),
    ("similar region:North produc", "Did you mean product"),
])
def test_malformed_queries_say_what_was_expected(planted, text, match):
    with pytest.raises(ValueError, match=match):
        m.query(planted, text)


# --- precomputed examples ---------------------------------------------------------------------


def test_example_queries_show_the_planted_relationships(planted):
    examples = m.example_queries(planted)
    tops = [frame.token[0] for _, _, frame in examples]
    assert tops[0] in m.PLANTED["region_products"]["pairs"]["North"]
    assert tops[2:] == ["add_on:sleeping_bag", "age:cluster1", "product:rain_boots", "product:sandals"]
    for description, sql, frame in examples:
        assert description and "AI_" in sql and "FETCH FIRST" in sql
        assert list(frame.columns) == ["token", "column", "value", "score"]


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("call, name", [
    (lambda: m.make_table(0), "n_rows"),
    (lambda: m.make_table(-5), "n_rows"),
    (lambda: m.make_table(2.5), "n_rows"),
    (lambda: m.make_table("100"), "n_rows"),
    (lambda: m.make_table(True), "n_rows"),
    (lambda: m.make_table(10, seed=-1), "seed"),
    (lambda: m.make_table(10, seed=1.5), "seed"),
    (lambda: m.make_table(10, planted="yes"), "planted"),
    (lambda: m.enable_ai_query(m.make_table(100), dim=0), "dim"),
    (lambda: m.enable_ai_query(m.make_table(100), dim=-3), "dim"),
    (lambda: m.enable_ai_query(m.make_table(100), dim=10_000), "dim"),
    (lambda: m.enable_ai_query(m.make_table(100), n_clusters=0), "n_clusters"),
    (lambda: m.enable_ai_query(m.make_table(100), seed="x"), "seed"),
    (lambda: m.enable_ai_query(m.make_table(100), columns=["region", "regn"]), "columns"),
    (lambda: m.train([["region:North", "product:tent"]], seed=-2), "seed"),
    (lambda: m.train([["region:North", "product:tent"]], alpha=0.0), "alpha"),
    (lambda: m.train([], dim=2), "sentences"),
    (lambda: m.train([["region:North"]], dim=1), "sentences"),
    (lambda: m.vocabulary(["region:North product:tent"]), "sentences"),
    (lambda: m.table_to_sentences([[1, 2]]), "table"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_bad_input_to_the_functions_names_the_parameter(planted):
    with pytest.raises(ValueError, match="n="):
        m.most_similar(planted, "region:North", n=0)
    with pytest.raises(ValueError, match="members"):
        m.ai_semantic_cluster(planted, [], "product:tent")
    with pytest.raises(ValueError, match="members"):
        m.semantic_cluster(planted, ["product:tent", "product:parkas", "product:sandals", "product:umbrella"])
    with pytest.raises(ValueError, match="column 'colour' was not trained"):
        m.most_similar(planted, "region:North", "colour")
