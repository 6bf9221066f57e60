"""The live explorers of the SQL Data Insights chapter (notebook and Voila).

Besides the figures' sliders, two small tools that only a live kernel can offer:

* :class:`QueryBox`: type a query against the miniature (``similar region:North product``);
  an unknown value shows the miniature's "not in the vocabulary" message, never a traceback.
* :class:`Planner`: rows, columns and distinct values in; training time, CPU, memory, zFS and
  model size out, with the range the eleven published data sets support. Its inputs are bounded
  boxes, so they cannot leave their valid ranges; a table with no column at all gets the model's
  ValueError as a message.
"""
from __future__ import annotations

import html
from functools import lru_cache

import ipywidgets as w

from ..explorer import Explorer, NumberBox, study_dashboard, study_explorer
from . import miniature, model, planner
from . import published as pub
from . import figures as f

STUDY = "sql_data_insights"


def _readout(values: dict) -> str:
    """Key numbers at the sliders' setting (whichever sliders the explorer has)."""
    parts = []
    if {"engines", "threads", "fixed_min"} <= set(values):
        args = (values["fixed_min"], f.C["work"], values["engines"], values["threads"])
        together = float(model.concurrent_elapsed(2, *args))
        apart = float(model.sequential_elapsed(2, *args))
        parts.append(f"Two trainings of Table_1: {together:,.2f} min together, {apart:,.2f} min one after the other "
                     f"({1 - together / apart:.0%} less together).")
    if {"repeat_share", "beta"} <= set(values):
        d = pub.datasets()
        v5 = float(f.vocabulary_curve(d.loc["view_5", "rows"], values["repeat_share"], values["beta"]))
        parts.append(f"VIEW_5's vocabulary at this repeat share: {v5:,.0f} words (published "
                     f"{d.loc['view_5', 'vocabulary']:,.0f}).")
    if "columns" in values:
        n_words = float(model.words(10e6, values["columns"]))
        parts.append(f"A 10-million-row table with {values['columns']:.0f} columns makes {n_words / 1e6:,.0f} million "
                     f"words: about {n_words * planner.calibration().elapsed_min_per_mword / 1e6 / 60:,.1f} hours "
                     "of training at Table 6-1's pace.")
    if not parts:
        t1 = pub.datasets().loc["table_1"]
        # distinct categorical values: the vocabulary less the rule's 20 clusters per numeric column
        distinct = t1["vocabulary"] - 20 * t1["numeric"]
        lo, c, hi = model.plan(t1["rows"], t1["numeric"], t1["categorical"], distinct,
                               planner.calibration())["elapsed_min"]
        again = pub.concurrent().loc["single", "total_elapsed_min"]
        parts.append(f"Table_1 ({t1['rows'] / 1e6:.2f} million rows, {t1['n_columns']:.0f} columns): {c:,.1f} min "
                     f"predicted ({lo:,.1f} to {hi:,.1f}); {t1['elapsed_min']:g} and {again:g} min measured.")
    return "<p class='db2book-readout'>" + " ".join(parts) + "</p>"


def explorer(*names: str) -> Explorer:
    """Sliders and charts for the named figures (default: the vocabulary and the concurrency figures)."""
    return study_explorer(STUDY, names, readout=_readout)


# --- the miniature: type a query -------------------------------------------------------------------------


@lru_cache(maxsize=None)
def miniature_model() -> miniature.Embedding:
    """The chapter's miniature model: the seeded retail table, trained once per kernel (~20 ms)."""
    return miniature.enable_ai_query(miniature.make_table())


class QueryBox(w.VBox):
    """A text box for one line of :data:`miniature.QUERY_HELP`, and its answer (a table or a message)."""

    def __init__(self, emb: miniature.Embedding | None = None, value: str = "similar region:North product"):
        self.emb = emb or miniature_model()
        self.text = w.Text(value=value, description="Query", continuous_update=False,
                           layout=w.Layout(width="520px"), style={"description_width": "initial"})
        self.result = w.HTML()
        self.result.add_class("db2book-query-result")
        help_text = html.escape(miniature.QUERY_HELP)
        super().__init__([w.HTML("<b>Ask the miniature</b> (press Enter to run)"), self.text, self.result,
                          w.HTML(f"<pre style='font-size:85%;color:#555'>{help_text}</pre>")])
        self.text.observe(lambda change: self.ask(change["new"]), names="value")
        self.ask(value)

    def ask(self, text: str) -> str:
        """Run ``text``; show and return the HTML of the answer, or of the reason it has none."""
        try:
            table = miniature.query(self.emb, text)
            self.result.value = table.to_html(index=False)
        except ValueError as exc:  # NotInVocabulary and QueryError are ValueErrors
            self.result.value = (f"<pre style='color:#b00;white-space:pre-wrap'>"
                                 f"{html.escape(str(exc))}</pre>")
        return self.result.value


# --- the capacity planner ---------------------------------------------------------------------------------


class Planner(w.VBox):
    """Predict an Enable AI Query run from the table's shape, with the published data's range."""

    def __init__(self, rows: float = 10_000_000, numeric: int = 5, categorical: int = 15,
                 distinct: float = 1_000_000):
        self.rows = NumberBox(rows, 1, 1e12, "Rows", description="Rows", width="300px")
        self.numeric = NumberBox(numeric, 0, 1000, "Numeric columns", description="Numeric columns", integer=True,
                                 width="300px")
        self.categorical = NumberBox(categorical, 0, 1000, "Categorical columns", description="Categorical columns",
                                     integer=True, width="300px")
        self.distinct = NumberBox(distinct, 0, 1e12, "Distinct categorical values",
                                  description="Distinct categorical values (all columns)", width="420px")
        self.result = w.HTML()
        self.result.add_class("db2book-planner")
        inputs = [self.rows, self.numeric, self.categorical, self.distinct]
        super().__init__([w.HTML("<b>Plan a training run</b>")] + inputs + [self.result])
        for box in inputs:
            box.observe(lambda _: self.update(), names="value")
        self.update()

    def update(self) -> str:
        try:
            table = planner.plan_table(self.rows.value, self.numeric.value, self.categorical.value,
                                        self.distinct.value)
            shown = table.style.format({"low": "{:,.3g}", "central": "{:,.3g}", "high": "{:,.3g}"}).hide(
                axis="index").to_html()
            self.result.value = (shown + "<p style='color:#555'>Central: the Table 6-1 fits. Low and high: the "
                                 "smallest and largest measured/model ratio over the 11 published data sets "
                                 "(model size: one cluster per numeric column to IBM's rule).</p>")
        except ValueError as exc:
            self.result.value = f"<b style='color:#b00'>{html.escape(str(exc))}</b>"
        return self.result.value


def dashboard() -> Explorer:
    """Every figure of the chapter in tabs, then the miniature's query box and the planner (Voila)."""
    tools = w.Tab(children=[QueryBox(), Planner()], titles=["Ask the miniature", "Plan a training run"])
    return study_dashboard(STUDY, readout=_readout).add_tools(tools)
