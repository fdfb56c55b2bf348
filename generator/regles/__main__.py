"""`python -m regles`: the same command as `regles` (cli.py)."""

from regles.cli import main

raise SystemExit(main())
