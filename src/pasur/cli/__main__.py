"""``python -m pasur.cli`` runs the ``pasur`` command."""

from . import main

main()
