"""The book's studies, declared once, in book order.

Each study is a subpackage ``widgets.<slug>`` with the chapter ``chapters/<slug>.md`` and the
dashboard ``dashboards/<slug>.ipynb``. The ledger, the tests, the bench, the dashboards and the
classroom generators read :data:`STUDIES`; nothing else lists the studies.

Importing this module is light (no plotting library): a study's figures module is imported when
its figures are asked for (:meth:`Study.figures`), and only then.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from .figure import Figure


@dataclass(frozen=True)
class Study:
    """One study of the book: its package, its chapter's title and its explorers' defaults.

    ``explore`` names the figures (``Figure.name``) the chapter's explorer opens with;
    ``explorer_title`` heads that explorer. The dashboard shows every figure, in tabs when ``tabs``.
    """

    slug: str  # package widgets.<slug>, chapters/<slug>.md, dashboards/<slug>.ipynb, data/<slug>/
    title: str  # the chapter's title, as its page heads it
    explore: tuple[str, ...]  # the figures the live explorer opens with
    explorer_title: str
    tabs: bool = True  # the dashboard puts each figure in a tab of its own
    page: str = ""  # the page under the book's root, without .html; "" means chapters/<slug>
    #: the data figures of the source's studied section, as it numbers them: "3 to 18", "3-33 to 3-40, 3-51 to
    #: 3-56"; each is listed in ``source_figures/<slug>.csv`` with its chart or its reason (widgets.source_figures)
    figure_ranges: str = ""

    @property
    def data_figures(self) -> list[str]:
        """The studied section's data figures, expanded: ``["Figure 3-33", "Figure 3-34", ...]``."""
        out = []
        for part in filter(None, (p.strip() for p in self.figure_ranges.split(","))):
            first, _, last = (x.strip() for x in part.partition(" to "))
            prefix = first.rpartition("-")[0] + "-" if "-" in first else ""
            if not last.startswith(prefix):
                raise ValueError(f"{self.slug}: figure range {part!r} spans two chapters of its source")
            numbers = range(int(first[len(prefix):]), int((last or first)[len(prefix):]) + 1)
            out += [f"Figure {prefix}{n}" for n in numbers]
        return out

    @property
    def page_path(self) -> str:
        """The page that shows the study's figures: ``chapters/<slug>`` unless declared."""
        return self.page or f"chapters/{self.slug}"

    @property
    def package(self) -> str:
        return f"widgets.{self.slug}"

    def module(self, name: str) -> ModuleType:
        """``widgets.<slug>.<name>`` (``model``, ``calibration``, ``fidelity``, ``figures``, ...), imported."""
        return importlib.import_module(f"{self.package}.{name}")

    def figures(self) -> dict[str, "Figure"]:
        """Every figure of the chapter by name, in the order the figures module declares them (``ALL``)."""
        return {fig.name: fig for fig in self.module("figures").ALL}

    def figure(self, name: str) -> "Figure":
        """One figure by its name (``"backlog_utilisation"``); ValueError naming the valid ones."""
        figures = self.figures()
        if name not in figures:
            raise ValueError(f"{self.slug}: no figure named {name!r}; choose from {', '.join(figures)}")
        return figures[name]


STUDIES: tuple[Study, ...] = (
    Study("large_memory", "Large memory for DB2 buffer pools", ("sync_reads", "itr"),
          "Large memory: explore the model", figure_ranges="3 to 18"),
    Study("hit_ratio_dead", "The buffer pool hit ratio is dead", ("threshold", "reads"),
          "The hit ratio is dead: explore the models"),
    Study("fast_index_traversal", "Fast index traversal: skipping the walk down the tree", ("select", "levels"),
          "Fast index traversal: explore the model", figure_ranges="2-9 to 2-16"),
    Study("zhyperlink", "zHyperLink: when spinning beats waiting", ("elapsed", "hit_ratio"),
          "zHyperLink: explore the model", figure_ranges="3-33 to 3-40, 3-51 to 3-56"),
    Study("system_recovery_boost", "System Recovery Boost: buying back the hour after an outage",
          ("backlog_etr", "backlog_wait"), "System Recovery Boost: explore the model", figure_ranges="3-14 to 3-22"),
    Study("sql_data_insights", "SQL Data Insights: training a model on a table", ("vocabulary", "concurrency"),
          "SQL Data Insights: explore the models", figure_ranges="6-1 to 6-9, 6-12 to 6-22"),
    Study("sap_banking", "SAP Banking at 150 million accounts: how far one database scales",
          ("itr", "per_processor"), "SAP Banking: explore the scaling", figure_ranges="3 to 10"),
)

SLUGS: tuple[str, ...] = tuple(s.slug for s in STUDIES)

#: Pages with figures that are not studies: no ledger, dashboard or assignment; the site tests and the
#: bench read them beside :data:`STUDIES`.
NOTES: tuple[Study, ...] = (
    Study("zedc", "zEDC compression: what the deck claims", ("disk", "cpu"),
          "zEDC: what the claims mean for your volumes",
          page="book/zedc"),
)


def study(slug: str) -> Study:
    """The study named ``slug``; ValueError naming the valid slugs."""
    for s in STUDIES + NOTES:
        if s.slug == slug:
            return s
    raise ValueError(f"study={slug!r} is not one of the book's studies or notes: "
                     f"{', '.join(SLUGS + tuple(n.slug for n in NOTES))}")


def all_figures(notes: bool = False) -> dict[str, "Figure"]:
    """Every figure of the book's studies by its qualified key ``"<study>.<figure>"``, in book order
    (and the notes' figures after them when ``notes``)."""
    return {fig.key: fig for s in STUDIES + (NOTES if notes else ()) for fig in s.figures().values()}
