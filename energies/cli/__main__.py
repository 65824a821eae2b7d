"""``python -m energies.cli`` runs the ``energies`` command (as ``python -m energies`` does)."""

from . import main

raise SystemExit(main())
