"""Write the schemas' JSON files again from pasur.schemas: ``python -m pasur.schemas``."""

from . import FILES, HERE, build, text

for name, schema in build().items():
    (HERE / FILES[name]).write_text(text(schema), encoding="utf-8")
    print(f"{name}: {HERE / FILES[name]}")
