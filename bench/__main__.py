"""`python -m bench`: run every benchmark and print the table."""

from bench.run import main

raise SystemExit(main())
