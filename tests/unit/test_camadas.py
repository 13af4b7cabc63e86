"""The house's layering rule (docs/desenvolvimento.md, "Camadas"), checked on every module's
imports, those inside functions included: the doors (rest_v1, oauth, portal) and the workers (tasks)
never import each other, and the domain (graphql_api) imports none of them and, of the
composition root, only vitrine.infra and vitrine.settings (vitrine.runtime for type hints only)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("graphql_api", "rest_v1", "oauth", "portal", "tasks", "vitrine")
SEPARATE = ("rest_v1", "oauth", "portal", "tasks")  # never import one another
DOMAIN_MAY_USE = ("vitrine.infra", "vitrine.settings")
DOMAIN_TYPE_ONLY = ("vitrine.runtime",)  # under `if TYPE_CHECKING:`, never at run time

def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(path: Path, module: str) -> list[tuple[str, bool]]:
    """(imported name, under TYPE_CHECKING) for every import in the file, at any depth; a
    `from a import b` counts as a.b (a module or a name in it), relative imports resolved."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(), str(path))
    type_only = {id(n) for node in ast.walk(tree) if _is_type_checking(node) for b in node.body for n in ast.walk(b)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in type_only) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            found += [(f"{base}.{alias.name}", id(node) in type_only) for alias in node.names]
    return found


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def breach(importer: str, imported: str, type_only: bool) -> str | None:
    """Why this import breaks the rule, or None."""
    own, target = importer.split(".")[0], imported.split(".")[0]
    if own in SEPARATE and target in SEPARATE and target != own:
        return f"{own} never imports {target}"
    if own == "graphql_api":
        if target in SEPARATE:
            return f"the domain never imports {target}"
        if target == "vitrine" and not any(_within(imported, allowed) for allowed in DOMAIN_MAY_USE):
            if not (type_only and any(_within(imported, allowed) for allowed in DOMAIN_TYPE_ONLY)):
                return "the domain uses only vitrine.infra and vitrine.settings of the composition root"
    return None


def all_breaches() -> list[tuple[str, str, str]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            importer = _module_name(path)
            for imported, type_only in imports(path, importer):
                reason = breach(importer, imported, type_only)
                if reason is not None:
                    found.append((importer, imported, reason))
    return found


def test_no_module_breaks_the_layering_rule():
    found = [f"{importer} imports {imported}: {reason}" for importer, imported, reason in all_breaches()]
    assert not found, "\n".join(found)


def test_the_rule_sees_every_kind_of_import(tmp_path):
    assert breach("portal.x", "rest_v1.keys.RUNTIME", False) == "portal never imports rest_v1"
    assert breach("rest_v1.x", "tasks.maintenance", False) == "rest_v1 never imports tasks"
    assert breach("graphql_api.x", "portal.web.Page", False) == "the domain never imports portal"
    assert breach("graphql_api.x", "vitrine.templating.DOCS_DIR", False) is not None
    assert breach("graphql_api.x", "vitrine.runtime.Runtime", False) is not None
    assert breach("graphql_api.x", "vitrine.runtime.Runtime", True) is None
    assert breach("graphql_api.x", "vitrine.infra.storage", False) is None
    assert breach("graphql_api.x", "vitrine.settings.DOCS_DIR", False) is None
    assert breach("vitrine.app", "rest_v1.app.create_v1_app", False) is None  # the root composes doors
    # imports inside functions, relative ones and TYPE_CHECKING blocks are all seen
    probe = tmp_path / "sonda.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\nfrom .core import errors\nif TYPE_CHECKING:\n    from vitrine.runtime import Runtime\n"
        "def f():\n    from portal import web\n"
    )
    found = imports(probe, "graphql_api.sonda")
    assert set(found) == {
        ("typing.TYPE_CHECKING", False), ("graphql_api.core.errors", False), ("vitrine.runtime.Runtime", True),
        ("portal.web", False),
    }
    assert [breach("graphql_api.sonda", name, type_only) for name, type_only in found].count(None) == 3
