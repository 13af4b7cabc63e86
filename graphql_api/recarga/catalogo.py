"""The catalogue of single packages, kept as data: pacotes.json beside this module is the source,
loaded into the `pacotes` table by a data migration (vitrine/migrations/0008_pacotes.py).

Loading is idempotent: each package of the file is inserted or brought up to date by its codigo;
a codigo no longer in the file is switched off (ativo false), never deleted, because purchases
name it. A purchase keeps the credits and price it was sold at, so later changes never touch it.
To change the catalogue: edit the file and add a migration that calls `carregar` again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

ARQUIVO = Path(__file__).with_name("pacotes.json")


class PacoteDoArquivo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    codigo: Annotated[StrictStr, Field(pattern=r"^[a-z0-9_]{1,40}$")]
    nome: Annotated[StrictStr, Field(min_length=1, max_length=100)]
    creditos: Annotated[StrictInt, Field(gt=0)]
    precoCentavos: Annotated[StrictInt, Field(gt=0)]


def ler(arquivo: Path = ARQUIVO) -> list[PacoteDoArquivo]:
    """The packages of the file, in the order they are offered; a broken file stops the migration."""
    pacotes = [PacoteDoArquivo.model_validate(item) for item in json.loads(arquivo.read_text())]
    codigos = [p.codigo for p in pacotes]
    if len(set(codigos)) != len(codigos):
        raise ValueError(f"{arquivo}: a codigo repeats")
    return pacotes


def _marcas(dialect: str, inicio: int, quantos: int) -> str:
    if dialect == "sqlite":
        return ",".join("?" for _ in range(quantos))
    return ",".join(f"${i}" for i in range(inicio, inicio + quantos))


async def carregar(client: Any, arquivo: Path = ARQUIVO) -> int:
    """Insert or update every package of the file through `client` (a Tortoise connection: the
    migration's own), switch off the others; returns how many the file has. Plain SQL with its
    columns named, so an old migration keeps working whatever the model becomes."""
    pacotes = ler(arquivo)
    dialect = client.capabilities.dialect
    upsert = (
        "INSERT INTO pacotes (codigo, nome, creditos, preco_centavos, ativo, ordem) "
        f"VALUES ({_marcas(dialect, 1, 6)}) ON CONFLICT (codigo) DO UPDATE SET nome = excluded.nome, "
        "creditos = excluded.creditos, preco_centavos = excluded.preco_centavos, ativo = excluded.ativo, "
        "ordem = excluded.ordem"
    )
    for ordem, p in enumerate(pacotes, start=1):
        await client.execute_query(upsert, [p.codigo, p.nome, p.creditos, p.precoCentavos, True, ordem])
    codigos = [p.codigo for p in pacotes]
    await client.execute_query(
        f"UPDATE pacotes SET ativo = {_marcas(dialect, 1, 1)} WHERE codigo NOT IN ({_marcas(dialect, 2, len(codigos))})",
        [False, *codigos],
    )
    return len(pacotes)
