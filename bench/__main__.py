"""`python -m bench`: run every benchmark and print the table (options: bench/cli.py)."""

from bench.cli import main

raise SystemExit(main())
