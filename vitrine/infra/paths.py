"""Where the checkout's files are: the developer guide in docs/ is served by the docs site and read
by the domain (the first version of the integration contract)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS_DIR = ROOT / "docs"
