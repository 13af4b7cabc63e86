"""The notice pages, through real HTTP, against a real HTTPS receiver that verifies with
`standardwebhooks`: the secret shown once, test deliveries watched until concluded, the
delivery history with redelivery, rotation behind the password, removal, roles."""

import re

from graphql_api.aviso.models import Aviso
from graphql_api.evento.catalog import EVENT_TYPES
from tests.factories import Integrator, eventually
from tests.portal.conftest import integrador_id, join

_SECRET = re.compile(r'value="(whsec_[A-Za-z0-9+/=]+)"')
_ID = re.compile(r'action="/avisos/(avs_\w+)/testar"')


async def _register(portal, url: str, eventos=("geracao.concluida",)) -> tuple[str, str]:
    """Register an address on the page; (its id, the secret shown once)."""
    response = await portal.submit("/avisos", {"url": url, "eventos": list(eventos)})
    assert response.status == 201, await response.text()
    page = await response.text()
    assert "Esta é a única vez que o segredo" in page and response.headers["Cache-Control"] == "no-store"
    # the id from the page itself: receiver ports are reused, so a url alone is not unique here
    return _ID.search(page).group(1), _SECRET.search(page).group(1)


async def test_registering_shows_the_secret_once_and_never_again(portal, owner, receptor):
    # given an empty page that offers every event of the catalog
    page = await portal.page("/avisos")
    assert "Nenhum endereço de avisos em teste ainda" in page
    for evento in EVENT_TYPES:
        assert f'name="eventos" value="{evento}"' in page
    # when an address is registered
    aviso_id, segredo = await _register(portal, receptor.url, ["geracao.concluida", "produto.conferido"])
    # then the secret appeared once: neither the list nor the detail show it again
    listing = await portal.page("/avisos")
    assert receptor.url in listing and f"/avisos/{aviso_id}" in listing and segredo not in listing
    detail = await portal.page(f"/avisos/{aviso_id}")
    assert "whsec_…" in detail and segredo not in detail
    assert detail.count("checked") == 2
    # registering the same url again updates its events, without a new secret
    response = await portal.submit("/avisos", {"url": receptor.url, "eventos": ["geracao.falhou"]})
    assert response.status == 303 and response.headers["Location"] == f"/avisos/{aviso_id}?aviso=aviso_atualizado"
    page = await portal.page(response.headers["Location"])
    assert "o segredo continua o mesmo" in page and segredo not in page
    assert (await Aviso.get(id=aviso_id)).eventos == ["geracao.falhou"]


async def test_registration_errors_are_shown_beside_the_fields(portal, owner):
    response = await portal.submit("/avisos", {"url": "http://exemplo.com/avisos"})
    assert response.status == 422
    page = await response.text()
    assert 'id="erro-url"' in page and "https://" in page
    assert 'id="erro-eventos"' in page and 'value="http://exemplo.com/avisos"' in page
    assert await Aviso.filter(url="http://exemplo.com/avisos").count() == 0


async def test_test_deliveries_are_watched_until_their_three_verdicts(portal, owner, receptor):
    aviso_id, segredo = await _register(portal, receptor.url)
    fragment_url = f"/avisos/{aviso_id}/testes"
    assert "Nenhum teste enviado para este endereço ainda" in await portal.page(f"/avisos/{aviso_id}")

    # a receiver that does not check signatures yet accepts all three: two verdicts fail
    response = await portal.submit(f"/avisos/{aviso_id}/testar", {}, token_from=f"/avisos/{aviso_id}")
    assert response.status == 303 and response.headers["Location"] == f"/avisos/{aviso_id}?aviso=testes_enviados"

    async def concluded():
        fragment = await portal.page(fragment_url)
        assert "concluída em" in fragment and "hx-trigger" not in fragment
        return fragment

    fragment = await eventually(concluded, timeout=15)
    assert fragment.count('<span class="badge bad">falhou</span>') == 2
    assert fragment.count('<span class="badge ok">passou</span>') == 1
    assert "Algum teste não teve a resposta esperada" in fragment
    integracao = await portal.page("/integracao")
    assert 'id="etapa-AVISOS_ASSINATURA" class="step falhou"' in integracao
    assert "assinatura_errada: esperado 400, 401 ou 403, recebido 204" in integracao

    # now it verifies with the secret shown at registration, and answers slowly: the page polls
    receptor.segredos.append(segredo)
    receptor.espera = 1.5
    await portal.submit(f"/avisos/{aviso_id}/testar", {}, token_from=f"/avisos/{aviso_id}")
    pending = await portal.page(fragment_url)
    assert f'hx-get="{fragment_url}"' in pending and 'hx-trigger="every 1s"' in pending
    assert "aguardando respostas" in pending
    detail = await portal.page(f"/avisos/{aviso_id}")
    assert 'id="resultado-testes"' in detail and 'aria-live="polite"' in detail
    fragment = await eventually(concluded, timeout=15)
    assert fragment.count('<span class="badge ok">passou</span>') == 3
    for caso in ("Entrega válida", "Assinatura errada", "Horário de 10 minutos atrás"):
        assert caso in fragment
    assert (
        '<span class="badge ok">204</span>' in fragment and fragment.count('<span class="badge warn">401</span>') == 2
    )
    assert "Os três testes passaram" in fragment
    assert [r.valido for r in receptor.recebidos[-3:]].count(True) == 1
    integracao = await portal.page("/integracao")
    assert 'id="etapa-AVISOS_ASSINATURA" class="step ok"' in integracao


async def test_delivery_history_shows_attempts_and_redelivers(portal, owner, receptor, factory):
    aviso_id, segredo = await _register(portal, receptor.url)
    receptor.segredos.append(segredo)
    assert "Nenhuma entrega para este endereço ainda" in await portal.page(f"/avisos/{aviso_id}")
    # given a delivery that failed once with a 500 and then succeeded on its retry
    receptor.respostas = [(500, {})]
    await factory.evento(Integrator(await integrador_id(owner), ""), "geracao.concluida")

    async def delivered():
        page = await portal.page(f"/avisos/{aviso_id}")
        assert '<span class="badge ok">entregue</span>' in page and "2 tentativas" in page
        return page

    page = await eventually(delivered, timeout=10)
    assert '<span class="badge bad">500</span>' in page and "resposta roteirizada" in page
    assert '<span class="badge ok">204</span>' in page and "geracao.concluida" in page
    entrega_id = receptor.recebidos[-1].webhook_id
    # when it is sent again by hand
    response = await portal.submit(
        f"/avisos/{aviso_id}/entregas/{entrega_id}/reenviar", {}, token_from=f"/avisos/{aviso_id}"
    )
    assert response.status == 303 and response.headers["Location"] == f"/avisos/{aviso_id}?aviso=reenvio"

    # then a third attempt arrives with the same webhook-id
    async def redelivered():
        assert "3 tentativas" in await portal.page(f"/avisos/{aviso_id}")

    await eventually(redelivered, timeout=10)
    assert receptor.ids()[-3:] == [entrega_id] * 3 and receptor.recebidos[-1].valido


async def test_rotating_the_secret_asks_for_the_password_and_shows_the_new_one_once(portal, owner, receptor):
    aviso_id, segredo = await _register(portal, receptor.url)
    confirm = await portal.page(f"/avisos/{aviso_id}/segredo")
    assert "Rotacionar o segredo" in confirm and 'name="carenciaHoras"' in confirm
    # without a fresh password: to the prompt, and back to this page afterwards
    response = await portal.submit(
        f"/avisos/{aviso_id}/segredo",
        {"carenciaHoras": "24"},
        headers={"Referer": str(portal.client.make_url(f"/avisos/{aviso_id}/segredo"))},
    )
    assert response.status == 303
    assert response.headers["Location"] == f"/reautenticar?proximo=/avisos/{aviso_id}/segredo"
    assert (await Aviso.get(id=aviso_id)).segredo_anterior_cifrado is None
    await portal.reauthenticate(owner, proximo=f"/avisos/{aviso_id}/segredo")
    # with it: a new secret, shown once, the previous one still signing for 24 hours
    response = await portal.submit(f"/avisos/{aviso_id}/segredo", {"carenciaHoras": "24"})
    assert response.status == 200
    page = await response.text()
    novo = _SECRET.search(page).group(1)
    assert novo != segredo and "O segredo anterior continua assinando até" in page
    assert response.headers["Cache-Control"] == "no-store"
    assert novo not in await portal.page(f"/avisos/{aviso_id}")
    # a grace period out of range is reported beside its field
    response = await portal.submit(f"/avisos/{aviso_id}/segredo", {"carenciaHoras": "999"})
    assert response.status == 422 and 'id="erro-carenciaHoras"' in await response.text()


async def test_removing_an_address_asks_first(portal, owner, receptor):
    aviso_id, _ = await _register(portal, receptor.url)
    confirm = await portal.page(f"/avisos/{aviso_id}/remover")
    assert "não pode ser desfeito" in confirm and receptor.url in confirm
    response = await portal.submit(f"/avisos/{aviso_id}/remover", {}, token_from=f"/avisos/{aviso_id}")
    assert response.status == 303 and response.headers["Location"] == "/avisos?aviso=aviso_removido"
    assert await Aviso.filter(id=aviso_id).count() == 0
    assert (await portal.get(f"/avisos/{aviso_id}")).status == 404


async def test_developers_manage_notices_finance_does_not_and_other_integrators_see_nothing(
    portal, new_portal, owner, receptor
):
    aviso_id, _ = await _register(portal, receptor.url)
    developer, _ = await join(portal, new_portal, "Davi Dev", "desenvolvedor")
    assert receptor.url in await developer.page("/avisos")
    finance, _ = await join(portal, new_portal, "Fabi Finanças", "financeiro")
    assert 'href="/avisos"' not in await finance.page("/visao-geral")
    response = await finance.get("/avisos")
    assert response.status == 403 and "avisos:gerenciar" in await response.text()
    response = await finance.submit(f"/avisos/{aviso_id}/remover", {}, token_from="/visao-geral")
    assert response.status == 403
    other = await new_portal()
    await other.signup()
    assert (await other.get(f"/avisos/{aviso_id}")).status == 404
    assert await Aviso.filter(id=aviso_id).count() == 1
