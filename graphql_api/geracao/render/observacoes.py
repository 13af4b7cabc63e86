"""What a generated image could not do as well as it should, in sentences a seller reads: the
`observacoes` of each image in the API. Each says what happened and, when the seller can change
it, what to send instead."""

from __future__ import annotations

from graphql_api.midia.recorte import CAUSAS

# The same advice as the check's catalog gives for these cases.
_FUNDO_LISO = (
    "envie uma foto do produto sobre um fundo liso e claro (papel, cartolina ou tecido branco ou "
    "cinza-claro), sem textura nem outros objetos por perto, ou em PNG com o fundo transparente"
)


def _vezes(fator: float) -> str:
    return f"{fator:.1f}".replace(".", ",") + "×"


def fundo_mantido(incerto: bool, causa: str | None = None) -> str:
    """A photo used whole, its background kept; `causa` (a key of midia.recorte.CAUSAS) says why
    the cut-out was not trusted and what to send instead."""
    motivo = (
        "o recorte automático do produto não ficou confiável"
        if incerto
        else "não foi possível separar o produto do fundo"
    )
    if causa in CAUSAS:
        return f"Foto usada inteira, com o fundo original: {motivo}: {CAUSAS[causa]}."
    return f"Foto usada inteira, com o fundo original: {motivo}. Para fundo branco, {_FUNDO_LISO}."


def ampliado(fator: float) -> str:
    return (
        f"Produto ampliado {_vezes(fator)} para preencher a imagem: pode parecer desfocado; "
        "envie uma foto em que o produto ocupe mais da foto."
    )


def principal_de_outra_foto(usada: int, principal: int) -> str:
    return (
        f"Imagem principal feita com a foto de ordem {usada}: o produto da foto principal (ordem "
        f"{principal}) não pôde ser separado do fundo. Para que a foto principal abra a galeria, "
        f"{_FUNDO_LISO}."
    )


# The principal image's failure (the generation ends `parcial`): the check calls the same case
# GALERIA_SEM_FOTO_RECORTAVEL.
SEM_FOTO_RECORTAVEL = (
    "GALERIA_SEM_FOTO_RECORTAVEL: nenhuma foto permite separar o produto do fundo, e a imagem "
    f"principal mostra o produto sozinho sobre branco puro. Para ela, {_FUNDO_LISO}."
)
