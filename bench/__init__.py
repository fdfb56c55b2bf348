"""`make bench`: how fast and how light the site is, measured against the baselines a user
would otherwise pick (stock Material for MkDocs, plain Pyodide, Material's search).

Run with ``python -m bench``; the table goes to stdout, the raw samples to ``build/bench.json``.
Nothing here runs inside ``make test``: only the pure formatting code (``bench.report``) has a
smoke test, ``tests/test_bench_format.py``.
"""
