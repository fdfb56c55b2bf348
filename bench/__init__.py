"""`make bench`: how fast and how light the site is, measured against the baselines a user
would otherwise pick (stock Material for MkDocs, plain Pyodide, Material's search); then big
generated games (s1 to s30) side by side with stock Material (bench/sizes.py, bench/scale.py).

Run with ``python -m bench``; the table goes to stdout, the raw samples to ``build/bench.json``.
Nothing here runs inside ``make test`` but its pure parts and instruments: the formatting
(``tests/test_bench_format.py``, ``tests/test_bench_sizes_format.py``), the big games' generator
and a strict build of s1 (``tests/test_bench_sizes.py``).
"""
