"""Command line: ``python -m widgets fidelity [--json] [--study NAME]``, and ``python -m widgets lessons
[--study NAME] [--unlisted]`` (the lessons ledger; exit status 1 when a causal sentence is unlisted).

Exits with status 1 when any ledger row is outside its tolerance and not marked a known miss,
or marked a known miss while within its tolerance.
"""
from __future__ import annotations

import argparse
import sys

from . import ledger, lessons
from .studies import SLUGS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m widgets")
    sub = parser.add_subparsers(dest="command", required=True)
    fid = sub.add_parser("fidelity", help="print the fidelity ledger")
    fid.add_argument("--json", action="store_true", help="print the rows as a JSON list")
    fid.add_argument("--study", choices=SLUGS, help="only this study's rows")
    les = sub.add_parser("lessons", help="print the lessons ledger's counts, or the sentences it lacks")
    les.add_argument("--study", choices=lessons.slugs(), help="only this page")
    les.add_argument("--unlisted", action="store_true",
                     help="the sentences with a causal word that are neither a lesson nor argued not one")
    args = parser.parse_args(argv)
    if args.command == "lessons":
        return _lessons(args)
    rows = ledger.rows(args.study)
    print(ledger.to_json(rows) if args.json else ledger.format_table(rows))
    return 0 if all(r.ok for r in rows) else 1


def _lessons(args) -> int:
    """Counts per page by kind, or with ``--unlisted`` every sentence still to classify (line, section, text)."""
    left = 0
    for slug in ([args.study] if args.study else lessons.slugs()):
        if args.unlisted:
            for s in lessons.unlisted(slug):
                left += 1
                print(f"{lessons.page_path(slug).relative_to(lessons.ROOT)}:{s.line} [{s.section}] {s.text}")
        else:
            c = lessons.counts(slug)
            print(f"{slug:24} {c['lessons']:4} lessons: {c['stated']} stated, {c['inferred']} inferred, "
                  f"{c['contested']} contested; {len(lessons.unlisted(slug))} unlisted")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
