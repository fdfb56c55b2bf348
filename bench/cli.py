"""`python -m bench`'s options: the big games' sizes, those sizes alone, a profile of one."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.project import ROOT
from bench.scale_run import SIZES_ENV, SizesPart, profile_report, requested_sizes

__all__ = ["main"]

SIZES_OUTPUT = ROOT / "build" / "bench-tailles.json"  # the raw samples of --tailles-seules


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Mesure le site face à Material seul et à Pyodide seul, puis de grands "
        "jeux générés (s1, s3, s10, s30) ; imprime le tableau, écrit build/bench.json.",
    )
    parser.add_argument(
        "--tailles",
        "--sizes",
        dest="sizes",
        metavar="LISTE",
        help=f"les grands jeux à mesurer, ex. s1,s3,s10,s30 (par défaut {SIZES_ENV}, sinon "
        "s1,s3,s10, et s30 si le temps le permet)",
    )
    parser.add_argument(
        "--tailles-seules",
        "--sizes-only",
        dest="sizes_only",
        action="store_true",
        help=f"ne mesurer que les grands jeux (données brutes : {SIZES_OUTPUT.relative_to(ROOT)})",
    )
    parser.add_argument(
        "--profil",
        "--profile",
        dest="profile",
        metavar="TAILLE",
        help="imprimer le profil (cProfile) d’une construction à chaud de cette taille",
    )
    arguments = parser.parse_args(argv)
    try:
        sizes, optional = requested_sizes(arguments.sizes or os.environ.get(SIZES_ENV))
        if arguments.profile:
            requested_sizes(arguments.profile)
    except ValueError as error:
        parser.error(str(error))
    work = Path(tempfile.mkdtemp(prefix="regles-bench-tailles-"))
    try:
        if arguments.profile:
            print(profile_report(arguments.profile.strip(), work))
            return 0
        part = SizesPart(work, sizes, optional)
        if not arguments.sizes_only:
            from bench.run import main as bench_main

            return bench_main(part)
        part.run()
        print(part.report())
        SIZES_OUTPUT.parent.mkdir(parents=True, exist_ok=True)
        SIZES_OUTPUT.write_text(
            json.dumps(part.data(), ensure_ascii=False, indent=1, default=str), encoding="utf-8"
        )
        return 1 if part.errors else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)
