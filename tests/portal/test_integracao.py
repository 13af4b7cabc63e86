"""Integration, contract and credits pages through real HTTP: the 8 steps turned ok by real calls,
the production request and its outcome, open alerts, the contract accepted by an owner after the
password, the statement with the test refill, and CSRF on every form of these pages."""

import re

from graphql_api.aviso.models import Aviso
from graphql_api.core.alertas import NovoAlerta
from graphql_api.core.principal import ALL_SCOPES, Ambiente, CredentialKind, Principal
from graphql_api.creditos import service as creditos
from graphql_api.integracao import alertas, contrato
from graphql_api.integracao.etapas import ETAPAS
from graphql_api.integracao.models import AceiteContrato, EtapaIntegracao
from graphql_api.integrador.models import Integrador
from tests.api.test_integracao import _all_steps_ok
from tests.factories import auth, eventually
from tests.portal.conftest import create_key, integrador_id, join


def _step(page: str, codigo: str) -> str:
    """The HTML of one step of the integration page."""
    return re.search(rf'<li id="etapa-{codigo}".*?</li>', page, re.S).group(0)


async def test_real_calls_turn_steps_ok_and_the_production_request_lists_what_is_missing(client, portal, owner):
    # given the 8 steps, all pending, each saying how to complete it
    page = await portal.page("/integracao")
    for etapa in ETAPAS:
        step = _step(page, etapa.codigo)
        assert 'class="step pendente"' in step and etapa.como_concluir in step
        assert f"/docs/integracao#{etapa.codigo}" in step
    assert "Pedir liberação de produção" in page and "0 de 8 etapas ok" in page
    # when the integrator's server makes its first calls with a test key
    token = await create_key(portal)
    first = await client.get("/v1/saldo", headers=auth(token))
    created = await client.post("/v1/contas", headers=auth(token), json={"codigoExterno": "c-int", "nome": "Loja"})
    assert first.status == 200 and created.status == 201

    # then the steps they prove turn ok, with the calls as evidence, linked to the call log
    async def proven():
        page = await portal.page("/integracao")
        assert 'class="step ok"' in _step(page, "SUBCONTA_CRIADA")
        return page

    page = await eventually(proven)
    chave = _step(page, "CHAVE_E_PRIMEIRA_CHAMADA")
    assert 'class="step ok"' in chave and "Verificada em" in chave and "Como concluir" not in chave
    assert f'href="/chamadas/{first.headers["X-Request-Id"]}"' in chave
    assert f'href="/chamadas/{created.headers["X-Request-Id"]}"' in _step(page, "SUBCONTA_CRIADA")
    # the overview summarises them
    overview = await portal.page("/visao-geral")
    assert "2 de 8 etapas ok" in overview and 'href="/integracao#etapa-SUBCONTA_CRIADA"' in overview
    # asking for production now lists the six steps still missing, with how to complete each
    response = await portal.submit("/integracao/producao", {}, token_from="/integracao")
    assert response.status == 409
    refused = await response.text()
    assert "faltam 6 etapas" in refused
    missing = re.search(r'role="alert">(.*?)</div>', refused, re.S).group(1)
    for etapa in ETAPAS[2:]:
        assert f'href="#etapa-{etapa.codigo}"' in missing and etapa.como_concluir in missing
    assert "CHAVE_E_PRIMEIRA_CHAMADA" not in missing
    assert (await Integrador.get(id=await integrador_id(owner))).producao_situacao == "bloqueada"


async def test_production_is_released_then_live_keys_point_to_the_contract(portal, owner):
    integrador = await integrador_id(owner)
    await _all_steps_ok(integrador)
    await EtapaIntegracao.filter(integrador_id=integrador, codigo="GALERIA_TESTE").update(
        evidencia={"geracaoId": "ger_abc"}
    )
    await portal.switch("producao")
    keys = await portal.page("/chaves")
    assert 'href="/integracao">Ver as etapas de integração' in keys
    page = await portal.page("/integracao")
    # a generation id as evidence links to the generation page
    assert '<a class="mono" href="/geracoes/ger_abc">ger_abc</a>' in _step(page, "GALERIA_TESTE")
    response = await portal.submit("/integracao/producao", {}, token_from="/integracao")
    assert response.status == 303 and response.headers["Location"] == "/integracao?aviso=producao_liberada"
    page = await portal.page(response.headers["Location"])
    assert '<span class="badge ok">liberada</span>' in page and "automatica em" in page
    assert "Pedir liberação de produção" not in page and 'href="/contrato">aceite o contrato' in page
    keys = await portal.page("/chaves")
    assert "Aceite a versão" in keys and 'href="/contrato">Ler e aceitar o contrato' in keys
    # suspended by the service: the reason is shown and there is nothing to ask for
    await Integrador.filter(id=integrador).update(producao_situacao="suspensa", producao_motivo="Abuso de limites")
    page = await portal.page("/integracao")
    assert "Abuso de limites" in page and "Pedir liberação de produção" not in page
    response = await portal.submit("/integracao/producao", {}, token_from="/visao-geral")
    assert response.status == 403 and "Abuso de limites" in await response.text()


async def test_open_alerts_are_shown_on_the_overview_and_the_integration_page(portal, owner, receptor):
    integrador = await integrador_id(owner)
    assert "Nenhum alerta aberto neste ambiente" in await portal.page("/visao-geral")
    assert (await portal.submit("/avisos", {"url": receptor.url, "eventos": ["geracao.concluida"]})).status == 201
    aviso = await Aviso.get(url=receptor.url, integrador_id=integrador)
    await alertas.abrir(
        NovoAlerta(
            integrador,
            "teste",
            "aviso_falhando",
            aviso.id,
            "Endereço de avisos falhando há 1 hora",
            evidencia={"avisoId": aviso.id, "url": aviso.url},
            smtp_url=None,
        )
    )
    for path in ("/visao-geral", "/integracao"):
        page = await portal.page(path)
        assert "Endereço de avisos falhando há 1 hora" in page and f'href="/avisos/{aviso.id}"' in page
    await portal.switch("producao")
    assert "Endereço de avisos falhando há 1 hora" not in await portal.page("/integracao")


async def test_owners_accept_the_contract_after_typing_the_password(portal, new_portal, owner):
    vigente = await contrato.publicar(
        "Contrato de integração", "1. **Primeira** cláusula.\n2. Segunda <script>x</script>.", por="stf_teste"
    )
    page = await portal.page("/contrato")
    assert f"Versão {vigente.versao}" in page and "ainda não foi aceita" in page
    # the Markdown text rendered, with any HTML in it escaped
    assert "<li><strong>Primeira</strong> cláusula.</li>" in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert f"Aceitar a versão {vigente.versao} em nome de Integradora Portal" in page
    # developers read it but cannot accept
    developer, _ = await join(portal, new_portal, "Davi Dev", "desenvolvedor")
    assert "Só quem tem o papel Dono pode aceitar" in await developer.page("/contrato")
    response = await developer.submit("/contrato", {"versao": str(vigente.versao)})
    assert response.status == 403
    # an owner is asked for the password first, and brought back
    response = await portal.submit(
        "/contrato", {"versao": str(vigente.versao)}, headers={"Referer": str(portal.client.make_url("/contrato"))}
    )
    assert response.status == 303 and response.headers["Location"] == "/reautenticar?proximo=/contrato"
    await portal.reauthenticate(owner, proximo="/contrato")
    # a version that is no longer the current one is refused
    response = await portal.submit("/contrato", {"versao": str(vigente.versao + 1)})
    assert response.status == 422 and f"A versão vigente é a {vigente.versao}." in await response.text()
    response = await portal.submit("/contrato", {"versao": str(vigente.versao)})
    assert response.status == 303 and response.headers["Location"] == "/contrato?aviso=contrato_aceito"
    page = await portal.page("/contrato")
    assert f"por <strong>Dona Ana &lt;{owner.email}&gt;</strong>" in page and "Aceitar a versão" not in page
    aceite = await AceiteContrato.get(integrador_id=await integrador_id(owner), versao=vigente.versao)
    assert aceite.aceito_por == f"Dona Ana <{owner.email}>"
    assert f"versão {vigente.versao} aceita em" in await portal.page("/integracao")


async def test_statement_pages_the_ledger_and_refills_play_credits(portal, new_portal, owner):
    page = await portal.page("/extrato")
    assert "Créditos de teste iniciais." in page and "+1.000" in page and "Mais antigos" not in page
    # owners refill the test wallet
    response = await portal.submit("/extrato/recarregar", {}, token_from="/extrato")
    assert response.status == 303 and response.headers["Location"] == "/extrato?aviso=recarregado"
    page = await portal.page("/extrato")
    assert "2.000" in page and "Recarga gratuita de 1000 créditos de teste." in page
    # fifty movements a page, newest first
    principal = Principal(CredentialKind.API_KEY, Ambiente.TESTE, ALL_SCOPES, integrador_id=await integrador_id(owner))
    for n in range(50):
        await creditos.recarregar_teste(principal, creditos=n + 1)
    page = await portal.page("/extrato")
    assert page.count("<tr>") == 51 and "+50</td>" in page and "Créditos de teste iniciais." not in page
    older = re.search(r'href="(/extrato\?cursor=lan_[^"]+)"', page).group(1)
    assert "Créditos de teste iniciais." in await portal.page(older)
    # developers read it without the refill; finance refills; production has no free refill
    developer, _ = await join(portal, new_portal, "Davi Dev", "desenvolvedor")
    assert "Recarregar créditos de teste" not in await developer.page("/extrato")
    assert (await developer.submit("/extrato/recarregar", {}, token_from="/extrato")).status == 403
    finance, _ = await join(portal, new_portal, "Fabi Finanças", "financeiro")
    assert "Recarregar créditos de teste" in await finance.page("/visao-geral")
    await portal.switch("producao")
    page = await portal.page("/extrato")
    assert "Nenhum movimento neste ambiente ainda" in page and "Recarregar créditos de teste" not in page
    response = await portal.submit("/extrato/recarregar", {}, token_from="/extrato")
    assert response.status == 403 and "Só a carteira de teste" in await response.text()


async def test_every_new_form_refuses_a_missing_or_wrong_csrf_token(portal, owner, receptor):
    response = await portal.submit("/avisos", {"url": receptor.url, "eventos": ["geracao.concluida"]})
    assert response.status == 201
    aviso = await Aviso.get(url=receptor.url, integrador_id=await integrador_id(owner))
    await portal.reauthenticate(owner)  # CSRF is checked before anything, re-authentication included
    forms = [
        "/avisos",
        f"/avisos/{aviso.id}/testar",
        f"/avisos/{aviso.id}/eventos",
        f"/avisos/{aviso.id}/segredo",
        f"/avisos/{aviso.id}/remover",
        f"/avisos/{aviso.id}/entregas/ent_x/reenviar",
        "/integracao/producao",
        "/contrato",
        "/extrato/recarregar",
    ]
    for path in forms:
        for data in ({}, {"csrf": "0" * 64}):
            response = await portal.client.post(
                path, data=data | {"eventos": "geracao.falhou", "versao": "1"}, allow_redirects=False
            )
            assert response.status == 403, path
            assert "Formulário expirado ou inválido." in await response.text()
    # nothing happened
    aviso = await Aviso.get(id=aviso.id)
    assert aviso.eventos == ["geracao.concluida"] and aviso.segredo_anterior_cifrado is None
    assert await AceiteContrato.filter(integrador_id=aviso.integrador_id).count() == 0
    assert "1.000" in await portal.page("/extrato")


async def test_production_cannot_be_asked_with_steps_missing_and_the_page_says_why(portal, owner):
    page = await portal.page("/integracao")
    botao = re.search(r"<button[^>]*>Pedir liberação de produção</button>", page).group(0)
    assert "disabled" in botao and 'aria-describedby="motivo-producao"' in botao
    motivo = re.search(r'id="motivo-producao">(.*?)</span>', page, re.S).group(1)
    assert "0 de 8 etapas ok: faltam 8 etapas" in motivo
