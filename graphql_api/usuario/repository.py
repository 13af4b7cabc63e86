from datetime import datetime

from tortoise.models import Model

from graphql_api.core.purge import Purge
from graphql_api.usuario.models import LinkSenha, Sessao, TentativaEntrada, Usuario

# What the session rules read of any session (staff or seller), and what a portal request needs
# of its person: read in one query (every page pays for it).
SESSION_MECHANICS = ("id", "criado_em", "ultimo_uso_em", "expira_em")
SESSION_FIELDS = (
    "ambiente",
    "reautenticado_em",
    "usuario_id",
    "usuario__nome",
    "usuario__email",
    "usuario__papel",
    "usuario__integrador_id",
    "usuario__integrador__nome",
    "usuario__integrador__situacao",
)


async def by_email(email: str) -> Usuario | None:
    return await Usuario.get_or_none(email=email)


async def of_integrator(integrador_id: str) -> list[Usuario]:
    return await Usuario.filter(integrador_id=integrador_id).order_by("criado_em")


async def member(integrador_id: str, usuario_id: str) -> Usuario | None:
    return await Usuario.get_or_none(id=usuario_id, integrador_id=integrador_id)


async def count_owners(integrador_id: str) -> int:
    return await Usuario.filter(integrador_id=integrador_id, papel="dono").count()


async def touch_user(usuario_id: str, when: datetime) -> None:
    await Usuario.filter(id=usuario_id).update(ultimo_acesso_em=when)


# Sessions of either kind: `modelo` is Sessao (staff) or SessaoVendedor (graphql_api/usuario/sessoes.py).


async def session_row(modelo: type[Model], token_hash: str, campos: tuple[str, ...]) -> dict | None:
    rows = await modelo.filter(id=token_hash).values(*SESSION_MECHANICS, *campos)
    return rows[0] if rows else None


async def delete_session(modelo: type[Model], token_hash: str) -> int:
    return await modelo.filter(id=token_hash).delete()


async def update_session(modelo: type[Model], token_hash: str, **values) -> int:
    return await modelo.filter(id=token_hash).update(**values)


async def purge_sessions(purge: Purge, modelo: type[Model], now: datetime) -> int:
    return await purge.delete(modelo.filter(expira_em__lt=now), "expira_em")


async def delete_sessions_of(usuario_id: str) -> int:
    return await Sessao.filter(usuario_id=usuario_id).delete()


async def failures_since(
    *, email: str | None = None, tipo: str | None = None, ip: str | None = None, since: datetime
) -> list[datetime]:
    """When the failed sign-ins of an e-mail (of one kind of person) or of an address (any kind)
    happened, oldest first."""
    query = TentativaEntrada.filter(criado_em__gte=since)
    query = query.filter(email=email, tipo=tipo) if email is not None else query.filter(ip=ip)
    # tortoise types values_list(flat=True) as tuples; it yields the bare values
    return list(await query.order_by("criado_em").values_list("criado_em", flat=True))  # type: ignore[arg-type]


async def forget_failures(email: str, tipo: str) -> None:
    await TentativaEntrada.filter(email=email, tipo=tipo).delete()


async def link(token_hash: str) -> LinkSenha | None:
    return await LinkSenha.get_or_none(id=token_hash).prefetch_related("usuario")


async def links_since(usuario_id: str, since: datetime) -> int:
    return await LinkSenha.filter(usuario_id=usuario_id, criado_em__gte=since).count()


async def close_links_of(usuario_id: str, now: datetime) -> None:
    await LinkSenha.filter(usuario_id=usuario_id, usado_em__isnull=True).update(usado_em=now)


async def purge(purge: Purge, failures_before: datetime, links_before: datetime) -> tuple[int, int]:
    failures = await purge.delete(TentativaEntrada.filter(criado_em__lt=failures_before), "criado_em")
    # A link expires a fixed time after it was made: the indexed criado_em walks them in expiry order.
    links = await purge.delete(LinkSenha.filter(expira_em__lt=links_before), "criado_em")
    return failures, links
