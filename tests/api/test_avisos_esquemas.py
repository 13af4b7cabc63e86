"""Every notice really delivered is what /v1/openapi.json publishes for it: the service is driven
so that each event happens (a check ends, a gallery is delivered whole and in part, a gallery
fails, credits run low, quota thresholds are passed, the three test deliveries), a real HTTPS
receiver gets the deliveries, and each body is validated with jsonschema against the schema the
document's `webhooks` section gives for its event, and each header against its parameter there.

conta.desvinculada is validated as its sample is delivered (POST /avisos/disparos, what
`vitrine-cli trigger` calls) and as a real revocation at /oauth/revogar emits it."""

from __future__ import annotations

from collections import Counter

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from graphql_api.evento.catalog import EVENT_TYPES, TEST_EVENT
from graphql_api.imagem.models import Imagem
from tests.api.test_alertas_creditos import galeria
from tests.api.test_avisos import registrar
from tests.factories import eventually
from tests.fichas import RICA, fotos

DOCUMENTO = "urn:vitrine:openapi"


class Webhooks:
    """The `webhooks` of the served OpenAPI document, as a receiver's validator reads them."""

    def __init__(self, spec: dict) -> None:
        self.spec = spec
        self.registry = Registry().with_resource(DOCUMENTO, Resource.from_contents(spec, DRAFT202012))

    def _validator(self, schema: dict) -> Draft202012Validator:
        return Draft202012Validator(schema, registry=self.registry, format_checker=Draft202012Validator.FORMAT_CHECKER)

    def corpo(self, tipo: str) -> Draft202012Validator:
        # a reference to exactly the schema the document publishes for this event's body
        caminho = f"/webhooks/{tipo}/post/requestBody/content/application~1json/schema"
        return self._validator({"$ref": f"{DOCUMENTO}#{caminho}"})

    def cabecalhos(self, tipo: str) -> list[tuple[str, Draft202012Validator]]:
        return [
            (p["name"].lower(), self._validator(p["schema"]))
            for p in self.spec["webhooks"][tipo]["post"]["parameters"]
            if p["in"] == "header" and p["required"]
        ]


def _erros(validador: Draft202012Validator, valor) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validador.iter_errors(valor)]


async def test_every_notice_delivered_matches_the_schema_the_openapi_document_publishes(
    client, factory, oauth, integrator, receptor, photo_site
):
    webhooks = Webhooks(await (await client.get("/v1/openapi.json")).json())
    # given an address for every event, on the Essencial plan (500 credits), 345 of them used and
    # no package credits left
    await registrar(client, integrator, receptor, list(EVENT_TYPES))
    await factory.plano(integrator, "essencial")
    await factory.ajustar(integrator, -1000, bolso="pacote")
    await factory.ajustar(integrator, -345, bolso="plano")  # 155 available

    # when a product's check ends: produto.conferido
    conta = await factory.conta(integrator)
    produto = await factory.produto(integrator, conta, **RICA, imagens=fotos(photo_site, 1, 2, 3, 4, 5, 6))
    produto = await factory.conferido(integrator, produto)
    # a gallery delivered whole: geracao.concluida; its reservation passes 70 % of the quota: cota.alerta
    await galeria(client, factory, integrator, produto, 3)
    # a gallery delivered in part (one photo's file is gone): geracao.concluida, parcial
    itens = [(await Imagem.get(id=item["id"])).arquivo for item in produto["fotos"]["itens"]]
    await factory.runtime.storage.remove(itens[1])
    await galeria(client, factory, integrator, produto, 3)
    # a gallery that fails (no photo file left): its reservation leaves 49 credits, below the
    # threshold of 50, and passes 90 %: creditos.baixos and cota.alerta; then geracao.falhou
    await factory.ajustar(integrator, -90, bolso="plano")  # 55 available
    for arquivo in itens[:1] + itens[2:]:
        await factory.runtime.storage.remove(arquivo)
    await galeria(client, factory, integrator, produto, 3)
    # the three test deliveries: aviso.teste
    response = await client.post("/v1/avisos/teste", headers=integrator.headers)
    assert response.status == 202, await response.text()
    # conta.desvinculada: its sample (vitrine-cli trigger), and a seller's grant the app revokes
    response = await client.post("/v1/avisos/disparos", json={"tipo": "conta.desvinculada"}, headers=integrator.headers)
    assert response.status == 202, await response.text()
    app = await oauth.app(integrator)
    vinculo = await oauth.tokens(app, await oauth.consentir(app))
    revogado = await client.post("/oauth/revogar", data={"token": vinculo["refresh_token"]}, **oauth.basic(app))
    assert revogado.status == 200

    esperados = Counter(
        {
            "produto.conferido": 1,
            "geracao.concluida": 2,
            "cota.alerta": 2,
            "creditos.baixos": 1,
            "geracao.falhou": 1,
            TEST_EVENT: 3,
            "conta.desvinculada": 2,
        }
    )

    async def chegaram():
        assert Counter(r.evento["tipo"] for r in receptor.recebidos) == esperados

    await eventually(chegaram, timeout=60)
    # then every event type arrived...
    assert set(esperados) == {*EVENT_TYPES, TEST_EVENT}
    por_tipo = {tipo: [r for r in receptor.recebidos if r.evento["tipo"] == tipo] for tipo in esperados}
    assert {r.evento["data"]["situacao"] for r in por_tipo["geracao.concluida"]} == {"concluida", "parcial"}
    assert [r.evento["data"]["limiar"] for r in por_tipo["cota.alerta"]] == [70, 90]
    desvinculadas = {r.evento["contaId"]: r.evento["data"] for r in por_tipo["conta.desvinculada"]}
    assert desvinculadas[vinculo["conta_id"]]["contaId"] == vinculo["conta_id"]
    assert desvinculadas[vinculo["conta_id"]]["motivo"] == "integrador_revogou"
    # ...and each delivery, its body and its headers, is what the document publishes for its event
    for recebido in receptor.recebidos:
        tipo = recebido.evento["tipo"]
        assert _erros(webhooks.corpo(tipo), recebido.evento) == [], (tipo, recebido.evento)
        for nome, validador in webhooks.cabecalhos(tipo):
            assert nome in recebido.cabecalhos, (tipo, nome)
            assert _erros(validador, recebido.cabecalhos[nome]) == [], (tipo, nome, recebido.cabecalhos[nome])
    assert all(r.valido for r in receptor.recebidos if r.evento["tipo"] != TEST_EVENT)
    # the validation bites: a body missing a field, with a field of the wrong type or an unknown
    # one, or of another event's shape, is refused
    concluida = por_tipo["geracao.concluida"][0].evento
    assert _erros(webhooks.corpo("geracao.concluida"), concluida | {"data": {"geracaoId": concluida["data"]["id"]}})
    assert _erros(webhooks.corpo("geracao.concluida"), concluida | {"criadoEm": "ontem"})
    assert _erros(webhooks.corpo("geracao.falhou"), concluida)
    conferido = por_tipo["produto.conferido"][0].evento
    assert _erros(webhooks.corpo("produto.conferido"), conferido | {"extra": 1})
