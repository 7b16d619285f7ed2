"""MkDocs hooks (mkdocs.yml): the README as the site's overview page, its links made the site's,
and the formats' JSON Schemas published from the package (src/pasur/schemas), so that each is
written once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "src" / "pasur" / "schemas"


def readme_page() -> str:
    """The README with its links into docs/ made relative to the site's root."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    text = re.sub(r"\]\(docs/", "](", text)
    return text.replace('src="docs/', 'src="')


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, "overview.md", content=readme_page()))
    for schema in sorted(SCHEMAS.glob("*.schema.json")):
        files.append(File.generated(config, f"schemas/{schema.name}", abs_src_path=str(schema)))
    return files
