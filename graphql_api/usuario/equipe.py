"""The team: owners invite people with a role, change roles and remove people; an integrator
always keeps at least one owner."""

from __future__ import annotations

from tortoise.exceptions import IntegrityError

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.principal import Papel, Principal
from graphql_api.core.transactions import transaction
from graphql_api.core.validation import validate
from graphql_api.usuario import repository
from graphql_api.usuario.cadastro import email_taken
from graphql_api.usuario.links import send_link
from graphql_api.usuario.models import Usuario
from graphql_api.usuario.schemas import Convite


async def obter(principal: Principal, usuario_id: str) -> Usuario:
    return await encontrar(
        usuario_id,
        "usr_",
        lambda: repository.member(principal.integrador_exigido, usuario_id),
        f"Pessoa {usuario_id} não encontrada neste integrador.",
    )


async def listar(principal: Principal) -> list[Usuario]:
    return await repository.of_integrator(principal.integrador_exigido)


async def convidar(principal: Principal, dados: dict, *, base_url: str, smtp_url: str | None) -> Usuario:
    """Add a person with a role; they get an e-mail with a link to choose their password."""
    convite = validate(Convite, dados)
    if await repository.by_email(convite.email) is not None:
        raise email_taken()
    autor = await obter(principal, principal.ator_exigido)
    try:
        async with transaction():
            usuario = await Usuario.create(
                id=new_id("usr_"),
                integrador_id=principal.integrador_id,
                nome=convite.nome,
                email=convite.email,
                papel=convite.papel,
                hash_senha=None,
            )
            await send_link(usuario, "convite", base_url=base_url, smtp_url=smtp_url, convidado_por=autor.nome)
    except IntegrityError:
        raise email_taken() from None
    return usuario


def _last_owner(campo: str) -> ApiError:
    return ApiError(
        "VALIDATION_FAILED",
        fields=[
            FieldError(
                campo, "valor_invalido", "O integrador precisa de pelo menos um dono: promova outra pessoa antes."
            )
        ],
    )


async def alterar_papel(principal: Principal, usuario_id: str, papel: str) -> Usuario:
    if papel not in {p.value for p in Papel}:
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[FieldError("papel", "valor_invalido", "Escolha dono, desenvolvedor ou financeiro.")],
        )
    usuario = await obter(principal, usuario_id)
    leaves_ownership = usuario.papel == Papel.DONO.value and papel != Papel.DONO.value
    if leaves_ownership and await repository.count_owners(principal.integrador_exigido) <= 1:
        raise _last_owner("papel")
    usuario.papel = papel
    await usuario.save(update_fields=["papel"])
    return usuario


async def remover(principal: Principal, usuario_id: str) -> None:
    """Remove a person: their sessions and links go with them at once."""
    usuario = await obter(principal, usuario_id)
    if usuario.id == principal.ator_id:
        raise ApiError(
            "VALIDATION_FAILED", fields=[FieldError("usuarioId", "valor_invalido", "Você não pode remover a si mesmo.")]
        )
    if usuario.papel == Papel.DONO.value and await repository.count_owners(principal.integrador_exigido) <= 1:
        raise _last_owner("usuarioId")
    await usuario.delete()
