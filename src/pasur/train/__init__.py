"""Training the ``net`` bot: make the distillation targets with the native solver, then fit the
network to them with torch (``python -m pasur.train``, docs/TRAINING.md)."""
