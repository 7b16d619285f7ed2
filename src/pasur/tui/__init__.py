"""The terminal game: the full-screen app, ``--plain``, and the record viewer."""
