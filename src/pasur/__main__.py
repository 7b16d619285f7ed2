"""``python -m pasur`` runs the ``pasur`` command."""

from .cli import main

main()
