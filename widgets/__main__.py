"""Command line: ``python -m widgets fidelity [--json] [--study NAME]``.

Exits with status 1 when any ledger row is outside its tolerance and not marked a known miss,
or marked a known miss while within its tolerance.
"""
from __future__ import annotations

import argparse
import sys

from . import ledger
from .studies import SLUGS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m widgets")
    sub = parser.add_subparsers(dest="command", required=True)
    fid = sub.add_parser("fidelity", help="print the fidelity ledger")
    fid.add_argument("--json", action="store_true", help="print the rows as a JSON list")
    fid.add_argument("--study", choices=SLUGS, help="only this study's rows")
    args = parser.parse_args(argv)
    rows = ledger.rows(args.study)
    print(ledger.to_json(rows) if args.json else ledger.format_table(rows))
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
