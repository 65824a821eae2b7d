"""``python -m energies`` runs the ``energies`` command."""

from .cli import main

raise SystemExit(main())
