"""The quality check from the integrator's side: photos served over real HTTPS, screened; the
check run by a task per version; POST /produtos/{produtoId}/conferencia; states and limits."""

from datetime import UTC, datetime, timedelta

import pytest

from graphql_api.conferencia.models import Conferencia, Foto
from graphql_api.evento.models import Evento
from tasks.conferencia import varrer
from tests.api.test_auth import assert_error
from tests.factories import eventually
from tests.fichas import RICA, cenas, fotos


@pytest.fixture
async def conta(factory, integrator):
    return await factory.conta(integrator)


async def conferir(client, integrator, produto_id):
    return await client.post(f"/v1/produtos/{produto_id}/conferencia", headers=integrator.headers)


async def resultado(client, integrator, produto_id) -> dict:
    response = await conferir(client, integrator, produto_id)
    assert response.status == 200, await response.text()
    body = (await response.json())["data"]
    return {r["tipo"]: r for r in body["resultados"]} | {"_": body}


def codigos(resultado: dict) -> set[str]:
    return {p["codigo"] for p in resultado["pendencias"]}


async def test_rich_ficha_is_screened_and_approved_for_every_type(client, factory, integrator, conta, photo_site):
    # given a rich ficha with 6 sharp photos on white
    produto = await factory.produto(integrator, conta, **RICA, imagens=fotos(photo_site, 1, 2, 3, 4, 5, 6))
    assert produto["situacao"] == "conferindo" and produto["fotos"]["aprovadas"] == 0
    assert {f["situacao"] for f in produto["fotos"]["itens"]} == {"pendente"}
    # when the check ends
    done = await factory.conferido(integrator, produto)
    # then every photo is approved with its size, and every media type too
    assert done["situacao"] == "aprovado"
    assert done["fotos"]["recebidas"] == 6 and done["fotos"]["aprovadas"] == 6
    first = done["fotos"]["itens"][0]
    assert first["id"].startswith("img_")  # an approved photo can be edited by id
    assert first | {"url": None, "id": None} == {
        "id": None,
        "url": None,
        "ordem": 1,
        "principal": True,
        "situacao": "aprovada",
        "largura": 1200,
        "altura": 1200,
        "motivos": [],
    }
    r = await resultado(client, integrator, produto["id"])
    assert r["_"]["situacao"] == "concluida" and r["_"]["versaoProduto"] == 1 and r["_"]["id"].startswith("cnf_")
    assert r["_"]["produtoId"] == produto["id"] and r["_"]["consultarNovamenteEm"] is None
    galeria = r["galeria"]
    assert galeria["aprovado"] and galeria["quantidadeMaximaImagens"] == 10
    assert galeria["quantidadesAprovadas"] == [3, 5, 7, 10] and galeria["notaVideo"] is None
    # 6 photos + highlights, measures, box, warranty, social proof, Q&A = 12 > 10
    assert galeria["pendencias"] == [
        {"codigo": "GALERIA_QUANTIDADE_ACIMA_DO_SUPORTADO", "severidade": "fraco", "campo": "imagens"}
    ]
    assert r["video_apresentacao"]["aprovado"] and r["video_apresentacao"]["pendencias"] == []
    assert r["video_apresentacao"]["notaVideo"] == 100
    assert r["video_apresentacao"]["quantidadesAprovadas"] is None
    cine = r["video_cinepremium"]
    assert cine["aprovado"] and codigos(cine) == {"CINEPREMIUM_POUCAS_FOTOS"}  # 6 of the 8 it likes
    assert 60 <= cine["notaVideo"] < r["video_apresentacao"]["notaVideo"]
    # and the event for the notices is recorded, once
    eventos = await Evento.filter(integrador_id=integrator.id, tipo="produto.conferido")
    assert len(eventos) == 1
    assert (
        eventos[0].dados["conferencia"]["id"] == r["_"]["id"] and eventos[0].dados["produto"]["situacao"] == "aprovado"
    )
    # and the originals are in media storage
    stored = await Foto.filter(produto_id=produto["id"])
    assert len(stored) == 6 and all([await factory.runtime.storage.has(f.arquivo) for f in stored])


async def test_every_bad_photo_gets_its_reason_and_nothing_else_is_affected(
    client, factory, integrator, conta, photo_site
):
    # given one ficha with every kind of bad photo, and a healthy product sent at the same time
    bad = [
        ("/foto/1.jpg?fundo=escuro", "aprovada", set()),  # a plain dark background is cut out: nothing to say
        ("/foto/2.jpg?blur=6", "reprovada", {("FOTO_DESFOCADA", "bloqueio")}),
        ("/foto/3.jpg?size=300", "reprovada", {("FOTO_RESOLUCAO_BAIXA", "bloqueio")}),
        (
            "/foto/4.jpg?size=800",
            "aprovada",
            {("FOTO_RESOLUCAO_ABAIXO_DO_IDEAL", "fraco"), ("FOTO_PRODUTO_PEQUENO", "fraco")},
        ),
        ("/foto/1.jpg?fundo=escuro&copia=1000&q=70", "reprovada", {("FOTO_QUASE_DUPLICADA", "bloqueio")}),
        ("/status/404", "reprovada", {("FOTO_HTTP_ERRO", "bloqueio")}),
        ("/status/500", "reprovada", {("FOTO_HTTP_ERRO", "bloqueio")}),
        ("/html", "reprovada", {("FOTO_NAO_E_IMAGEM", "bloqueio")}),
        ("/truncada.jpg", "reprovada", {("FOTO_CORROMPIDA", "bloqueio")}),
        ("/grande.jpg", "reprovada", {("FOTO_GRANDE_DEMAIS", "bloqueio")}),
        ("/bomba.png", "reprovada", {("FOTO_DIMENSOES_EXCESSIVAS", "bloqueio")}),
        ("/lenta.jpg", "reprovada", {("FOTO_TEMPO_ESGOTADO", "bloqueio")}),
        ("/redir/3", "reprovada", {("FOTO_REDIRECIONAMENTOS_DEMAIS", "bloqueio")}),
        ("/para-http", "reprovada", {("FOTO_URL_INVALIDA", "bloqueio")}),
        ("/redir/2", "aprovada", set()),  # 3 redirects are fine
    ]
    imagens = [{"url": photo_site(path), "ordem": i + 1} for i, (path, _, _) in enumerate(bad)]
    broken = await factory.produto(integrator, conta, nome="Tudo errado", imagens=imagens)
    healthy = await factory.produto(integrator, conta, **RICA, imagens=fotos(photo_site, 11, 12, 13))
    # when both checks end
    done = await factory.conferido(integrator, broken)
    # then each photo has its reason, with the right severity
    itens = done["fotos"]["itens"]
    for (path, situacao, motivos), item in zip(bad, itens, strict=True):
        assert item["situacao"] == situacao, (path, item["motivos"])
        assert {(m["codigo"], m["severidade"]) for m in item["motivos"]} == motivos, (path, item)
        assert all(m["detalhe"] for m in item["motivos"])
    assert itens[5]["motivos"][0]["detalhe"] == "HTTP 404" and itens[0]["principal"]
    assert (itens[2]["largura"], itens[2]["altura"]) == (300, 300) and itens[5]["largura"] is None
    assert done["fotos"]["recebidas"] == 15 and done["fotos"]["aprovadas"] == 3
    assert photo_site.host.hits["/status/500"] == 2 and photo_site.host.hits["/status/404"] == 1  # one retry of a 5xx
    # and the healthy product is approved as if nothing happened
    assert (await factory.conferido(integrator, healthy))["situacao"] == "aprovado"
    r = await resultado(client, integrator, broken["id"])
    assert r["galeria"]["aprovado"] and codigos(r["galeria"]) >= {"GALERIA_SEM_MEDIDAS"}
    assert not {c for c in codigos(r["galeria"]) if c.startswith("GALERIA_PRINCIPAL_")}  # the dark principal is fine
    assert not r["video_cinepremium"]["aprovado"] and "CINEPREMIUM_FOTOS_INSUFICIENTES" in codigos(
        r["video_cinepremium"]
    )


async def test_principal_photo_is_the_one_marked_or_the_first(client, factory, integrator, conta, photo_site):
    # given a principal (ordem 3) whose background cannot be told from the product, and two that can
    imagens = fotos(photo_site, 21, 22) + [cenas(photo_site, "inseparavel")[0] | {"ordem": 3, "principal": True}]
    done = await factory.conferido(integrator, await factory.produto(integrator, conta, **RICA, imagens=imagens))
    assert [f["principal"] for f in done["fotos"]["itens"]] == [False, False, True]
    # then the principal is still approved, told why it will not make the main image
    principal = done["fotos"]["itens"][2]
    assert principal["situacao"] == "aprovada"
    assert [(m["codigo"], m["severidade"]) for m in principal["motivos"]] == [("FOTO_FUNDO_INSEPARAVEL", "fraco")]
    # and the gallery, approved, says another photo will make the main image
    r = await resultado(client, integrator, done["id"])
    assert r["galeria"]["aprovado"]
    assert {"codigo": "GALERIA_PRINCIPAL_FUNDO_INSEPARAVEL", "severidade": "fraco", "campo": "imagens.principal"} in r[
        "galeria"
    ]["pendencias"]
    assert "GALERIA_SEM_FOTO_RECORTAVEL" not in codigos(r["galeria"])


async def test_text_over_the_photo_is_warned_about_and_a_printed_label_is_not(
    client, factory, integrator, conta, photo_site
):
    # given a principal with a FRETE GRÁTIS banner, a shop name and an @handle, and a bottle with its label
    imagens = cenas(photo_site, "texto_sobreposto", "rotulada")
    done = await factory.conferido(integrator, await factory.produto(integrator, conta, **RICA, imagens=imagens))
    banner, label = done["fotos"]["itens"]
    # then the banner is a weak motivo quoting what was read; the label says nothing
    assert banner["situacao"] == label["situacao"] == "aprovada", (banner["motivos"], label["motivos"])
    texto = next(m for m in banner["motivos"] if m["codigo"] == "FOTO_TEXTO_SOBREPOSTO")
    assert texto["severidade"] == "fraco" and "FRETE" in texto["detalhe"] and "@lojadaana" in texto["detalhe"]
    assert "FOTO_TEXTO_SOBREPOSTO" not in {m["codigo"] for m in label["motivos"]}
    # and the gallery warns that the photo making the main image carries text
    r = await resultado(client, integrator, done["id"])
    assert r["galeria"]["aprovado"]
    assert {"codigo": "GALERIA_PRINCIPAL_TEXTO_SOBREPOSTO", "severidade": "fraco", "campo": "imagens.principal"} in r[
        "galeria"
    ]["pendencias"]


async def test_a_label_alone_gives_no_text_pendencia(client, factory, integrator, conta, photo_site):
    imagens = cenas(photo_site, "rotulada") + [fotos(photo_site, 24)[0] | {"ordem": 2}]
    done = await factory.conferido(integrator, await factory.produto(integrator, conta, **RICA, imagens=imagens))
    assert [f["motivos"] for f in done["fotos"]["itens"]] == [[], []]
    r = await resultado(client, integrator, done["id"])
    assert not {c for c in codigos(r["galeria"]) if c.startswith("GALERIA_PRINCIPAL_")}


async def test_a_small_product_is_warned_about_before_the_main_image_enlarges_it(
    client, factory, integrator, conta, photo_site
):
    # given a principal where a small bottle takes a quarter of the photo
    imagens = cenas(photo_site, "pequeno_descentrado") + [fotos(photo_site, 25)[0] | {"ordem": 2}]
    done = await factory.conferido(integrator, await factory.produto(integrator, conta, **RICA, imagens=imagens))
    small, other = done["fotos"]["itens"]
    # then the photo is approved with a weak motivo giving its pixels and the enlargement
    assert small["situacao"] == "aprovada"
    pequeno = next(m for m in small["motivos"] if m["codigo"] == "FOTO_PRODUTO_PEQUENO")
    assert pequeno["severidade"] == "fraco" and "1020" in pequeno["detalhe"] and "1,5×" in pequeno["detalhe"]
    assert other["motivos"] == []
    # and the gallery warns that the main image will be blurred
    r = await resultado(client, integrator, done["id"])
    assert r["galeria"]["aprovado"]
    assert {
        "codigo": "GALERIA_PRINCIPAL_RESOLUCAO_EFETIVA_BAIXA",
        "severidade": "fraco",
        "campo": "imagens.principal",
    } in r["galeria"]["pendencias"]


async def test_no_photo_that_can_be_cut_out_blocks_the_gallery_only(client, factory, integrator, conta, photo_site):
    # given a rich ficha whose only photo is a box on the same wood
    imagens = cenas(photo_site, "inseparavel")
    done = await factory.conferido(integrator, await factory.produto(integrator, conta, **RICA, imagens=imagens))
    assert done["fotos"]["itens"][0]["situacao"] == "aprovada"
    assert [m["codigo"] for m in done["fotos"]["itens"][0]["motivos"]] == ["FOTO_FUNDO_INSEPARAVEL"]
    # then the gallery is refused for it, and its order is answered with the fix
    r = await resultado(client, integrator, done["id"])
    assert not r["galeria"]["aprovado"] and r["galeria"]["quantidadesAprovadas"] == []
    assert {"codigo": "GALERIA_SEM_FOTO_RECORTAVEL", "severidade": "bloqueio", "campo": "imagens.principal"} in r[
        "galeria"
    ]["pendencias"]
    assert "GALERIA_PRINCIPAL_FUNDO_INSEPARAVEL" not in codigos(r["galeria"])
    response = await client.post(
        "/v1/galerias",
        json={"produtoId": done["id"], "quantidadeImagens": 3},
        headers=integrator.headers | {"Idempotency-Key": "sem-recorte"},
    )
    assert response.status == 409
    body = await response.json()
    assert_error(body, "MEDIA_TYPE_NOT_APPROVED")
    field = next(f for f in body["error"]["fields"] if f["codigo"] == "GALERIA_SEM_FOTO_RECORTAVEL")
    assert field["campo"] == "imagens.principal" and "PNG com o fundo transparente" in field["mensagem"]


async def test_new_versions_reuse_unchanged_photos_and_identical_ones_start_nothing(
    client, factory, integrator, conta, photo_site
):
    # given a checked product with two photos
    imagens = fotos(photo_site, 31, 32)
    v1 = await factory.conferido(
        integrator, await factory.produto(integrator, conta, codigo="SKU-REUSO", **RICA, imagens=imagens)
    )
    first = (await resultado(client, integrator, v1["id"]))["_"]
    # when the same ficha is sent again
    same = await factory.produto(integrator, conta, codigo="SKU-REUSO", **RICA, imagens=imagens)
    # then nothing starts: same version, same check, no new run
    assert same["versao"] == 1 and same["situacao"] == "aprovado"
    assert (await resultado(client, integrator, v1["id"]))["_"]["id"] == first["id"]
    assert await Conferencia.filter(produto_id=v1["id"]).count() == 1
    # when the text changes but the photos do not
    v2 = await factory.produto(
        integrator, conta, codigo="SKU-REUSO", **(RICA | {"garantia": "24 meses"}), imagens=imagens
    )
    assert v2["versao"] == 2 and v2["situacao"] == "conferindo"
    assert {f["situacao"] for f in v2["fotos"]["itens"]} == {"pendente"}
    v2 = await factory.conferido(integrator, v2)
    second = (await resultado(client, integrator, v1["id"]))["_"]
    # then a new check ran for version 2, and the photos were not downloaded nor stored again
    assert second["id"] != first["id"] and second["versaoProduto"] == 2
    assert v2["fotos"]["aprovadas"] == 2
    assert sum(photo_site.host.not_modified.values()) == 2
    assert await Foto.filter(produto_id=v1["id"]).count() == 2
    # when a photo's content changes behind the same URL (the server forgets the old ETag)
    changed = [imagens[0], {"url": photo_site("/foto/33.jpg?q=80"), "ordem": 2}]
    v3 = await factory.conferido(
        integrator, await factory.produto(integrator, conta, codigo="SKU-REUSO", **RICA, imagens=changed)
    )
    assert v3["versao"] == 3 and v3["fotos"]["aprovadas"] == 2
    assert await Foto.filter(produto_id=v1["id"]).count() == 3


async def test_post_answers_202_while_checking_and_200_when_done(client, factory, integrator, conta, photo_site):
    # given a check that takes a second (a slow photo host)
    produto = await factory.produto(integrator, conta, **RICA, imagens=fotos(photo_site, 41, 42, atraso=1))
    # when the integrator asks for the check at once
    response = await conferir(client, integrator, produto["id"])
    # then it is running: 202, when to ask again, in the body and in Retry-After
    assert response.status == 202
    body = (await response.json())["data"]
    assert body["situacao"] == "em_andamento" and body["resultados"] == [] and body["concluidaEm"] is None
    assert body["consultarNovamenteEm"] and 1 <= int(response.headers["Retry-After"]) <= 5

    # and later it is 200 with the same check, done
    async def done():
        again = await conferir(client, integrator, produto["id"])
        assert again.status == 200
        return (await again.json())["data"]

    final = await eventually(done, timeout=60, interval=0.2)
    assert final["id"] == body["id"] and final["situacao"] == "concluida" and final["concluidaEm"]
    assert len(final["resultados"]) == 3


async def test_check_of_an_unknown_or_foreign_product_is_404(client, factory, integrator, conta):
    response = await conferir(client, integrator, "prd_nao_existe")
    assert response.status == 404
    assert_error(await response.json(), "NOT_FOUND")
    produto = await factory.produto(integrator, conta)
    stranger = await factory.integrator()
    response = await conferir(client, stranger, produto["id"])
    assert response.status == 404
    response = await client.get(f"/v1/contas/{conta['id']}/produtos/{produto['codigo']}", headers=stranger.headers)
    assert response.status == 404
    response = await client.post(f"/v1/produtos/{produto['id']}/conferencia?refazer=talvez", headers=integrator.headers)
    assert response.status == 422


async def test_ficha_without_photos_is_rejected_for_every_type_with_its_pendencias(client, factory, integrator, conta):
    done = await factory.conferido(integrator, await factory.produto(integrator, conta, nome="Só o nome"))
    assert done["situacao"] == "reprovado" and done["fotos"] == {"recebidas": 0, "aprovadas": 0, "itens": []}
    r = await resultado(client, integrator, done["id"])
    assert not any(r[t]["aprovado"] for t in ("galeria", "video_apresentacao", "video_cinepremium"))
    assert r["galeria"]["quantidadesAprovadas"] == [] and r["galeria"]["quantidadeMaximaImagens"] == 0
    bloqueios = {
        (p["codigo"], p["campo"])
        for t in ("galeria", "video_apresentacao", "video_cinepremium")
        for p in r[t]["pendencias"]
        if p["severidade"] == "bloqueio"
    }
    assert bloqueios == {
        ("GALERIA_SEM_FOTO_APROVADA", "imagens"),
        ("APRESENTACAO_FOTOS_INSUFICIENTES", "imagens"),
        ("APRESENTACAO_DESCRICAO_CURTA", "descricao"),
        ("CINEPREMIUM_FOTOS_INSUFICIENTES", "imagens"),
        ("CINEPREMIUM_DESCRICAO_CURTA", "descricao"),
    }
    assert r["video_apresentacao"]["notaVideo"] == 5  # only the "scenes" share: it has none to miss


async def test_daily_limit_schedules_automatic_checks_and_refuses_manual_ones(
    client, factory, integrator, conta, photo_site
):
    # given 10 versions in a row: 10 checks, the last one with a photo host in trouble
    produto = None
    for n in range(9):
        produto = await factory.produto(integrator, conta, codigo="SKU-LIMITE", nome=f"Versão {n + 1}")
    produto = await factory.produto(
        integrator, conta, codigo="SKU-LIMITE", **RICA, imagens=[{"url": photo_site("/status/503"), "ordem": 1}]
    )
    assert produto["versao"] == 10
    done = await factory.conferido(integrator, produto)
    assert done["fotos"]["itens"][0]["motivos"][0]["codigo"] == "FOTO_HTTP_ERRO"
    # when the integrator asks for an 11th run
    response = await client.post(f"/v1/produtos/{produto['id']}/conferencia?refazer=true", headers=integrator.headers)
    # then it is refused with its own 429 and when to come back
    assert response.status == 429
    assert_error(await response.json(), "CHECK_LIMIT_EXCEEDED")
    assert 86_000 < int(response.headers["Retry-After"]) <= 86_400
    # but a plain POST still reads the finished check
    assert (await conferir(client, integrator, produto["id"])).status == 200
    # when an 11th version arrives, it is kept and its check is scheduled, not lost
    v11 = await factory.produto(integrator, conta, codigo="SKU-LIMITE", nome="Versão 11")
    assert v11["versao"] == 11 and v11["situacao"] == "conferindo"
    response = await conferir(client, integrator, produto["id"])
    assert response.status == 202
    scheduled = (await response.json())["data"]
    assert scheduled["situacao"] == "agendada" and scheduled["versaoProduto"] == 11
    assert 86_000 < int(response.headers["Retry-After"]) <= 86_405
    # when a day has passed (the runs are moved back 24 hours) the sweep starts it
    yesterday = datetime.now(UTC) - timedelta(hours=24, minutes=1)
    await Conferencia.filter(produto_id=produto["id"]).exclude(id=scheduled["id"]).update(admitida_em=yesterday)
    await Conferencia.filter(id=scheduled["id"]).update(executar_em=yesterday)
    await varrer.kiq()
    final = await factory.conferido(integrator, v11)
    assert final["situacao"] == "reprovado" and final["versao"] == 11
    assert (await resultado(client, integrator, produto["id"]))["_"]["id"] == scheduled["id"]


async def test_a_lost_or_crashed_check_is_recovered_by_the_sweep(client, factory, integrator, conta, photo_site):
    # given a finished check whose worker "crashed" mid-run: still running, lease expired
    done = await factory.conferido(
        integrator, await factory.produto(integrator, conta, **RICA, imagens=fotos(photo_site, 51))
    )
    check = await Conferencia.get(produto_id=done["id"])
    long_ago = datetime.now(UTC) - timedelta(minutes=10)
    await Conferencia.filter(id=check.id).update(situacao="em_andamento", reservada_ate=long_ago, resultados=None)
    # when the sweep runs
    await varrer.kiq()

    # then the check runs again and ends
    async def rerun():
        row = await Conferencia.get(id=check.id)
        assert row.situacao == "concluida" and row.tentativas == 2

    await eventually(rerun, timeout=60, interval=0.1)
    # given one that broke too often, and whose message was lost
    await Conferencia.filter(id=check.id).update(
        situacao="em_andamento", reservada_ate=None, admitida_em=long_ago, tentativas=3
    )
    await varrer.kiq()

    # then it fails, the product says so, and a POST starts a new run that succeeds
    async def failed():
        response = await client.get(f"/v1/contas/{conta['id']}/produtos/{done['codigo']}", headers=integrator.headers)
        assert (await response.json())["data"]["situacao"] == "conferencia_falhou"

    await eventually(failed, timeout=60, interval=0.1)
    assert (await Conferencia.get(id=check.id)).situacao == "falhou"
    response = await conferir(client, integrator, done["id"])
    assert response.status == 202
    assert (await response.json())["data"]["id"] != check.id
    assert (await factory.conferido(integrator, done))["situacao"] == "aprovado"


async def test_delete_hides_the_product_and_keeps_its_generations(client, factory, integrator, conta):
    # given a product with a finished generation
    produto = await factory.conferido(integrator, await factory.produto(integrator, conta, codigo="SKU-DEL"))
    geracao = await factory.geracao(integrator, conta_id=conta["id"], produto_id=produto["id"])
    path = f"/v1/contas/{conta['id']}/produtos/SKU-DEL"
    # when it is deleted
    response = await client.delete(path, headers=integrator.headers)
    assert response.status == 204
    # then it is gone from every route, and a second delete is 404
    assert (await client.get(path, headers=integrator.headers)).status == 404
    assert (await conferir(client, integrator, produto["id"])).status == 404
    assert (await client.delete(path, headers=integrator.headers)).status == 404
    listed = await (await client.get(f"/v1/contas/{conta['id']}/produtos", headers=integrator.headers)).json()
    assert produto["id"] not in [p["id"] for p in listed["data"]]
    # and its generation is still readable
    assert (await client.get(f"/v1/geracoes/{geracao.id}", headers=integrator.headers)).status == 200
    # and the same SKU sent again is a new product
    again = await factory.produto(integrator, conta, codigo="SKU-DEL")
    assert again["id"] != produto["id"] and again["versao"] == 1


async def test_get_and_list_products_of_an_account(client, factory, integrator, conta, photo_site):
    created = [await factory.produto(integrator, conta, codigo=f"SKU-L{i}", nome=f"Produto {i}") for i in range(2)]
    created.append(await factory.produto(integrator, conta, codigo="SKU-L2", **RICA, imagens=fotos(photo_site, 61, 62)))
    for produto in created:
        await factory.conferido(integrator, produto)
    one = await (await client.get(f"/v1/contas/{conta['id']}/produtos/SKU-L1", headers=integrator.headers)).json()
    assert one["data"]["id"] == created[1]["id"] and one["data"]["situacao"] == "reprovado"
    base = f"/v1/contas/{conta['id']}/produtos"
    first = await (await client.get(f"{base}?limite=2", headers=integrator.headers)).json()
    assert [p["codigo"] for p in first["data"]] == ["SKU-L2", "SKU-L1"]
    cursor = first["paginacao"]["proximoCursor"]
    second = await (await client.get(f"{base}?limite=2&cursor={cursor}", headers=integrator.headers)).json()
    assert [p["codigo"] for p in second["data"]] == ["SKU-L0"] and second["paginacao"]["proximoCursor"] is None
    approved = await (await client.get(f"{base}?situacao=aprovado", headers=integrator.headers)).json()
    assert [(p["codigo"], p["fotos"]["aprovadas"]) for p in approved["data"]] == [("SKU-L2", 2)]
    bad = await client.get(f"{base}?situacao=feliz", headers=integrator.headers)
    assert bad.status == 422 and (await bad.json())["error"]["fields"][0]["campo"] == "situacao"
    assert (await client.get("/v1/contas/cta_nao_existe/produtos", headers=integrator.headers)).status == 404
    other = await factory.conta(integrator)
    assert (await (await client.get(f"/v1/contas/{other['id']}/produtos", headers=integrator.headers)).json())[
        "data"
    ] == []


async def test_photos_measured_by_an_older_analysis_are_measured_again_from_the_stored_original(
    client, factory, integrator, conta, photo_site
):
    # given a checked product whose two stored photos carry measures of the first analysis
    imagens = cenas(photo_site, "texto_sobreposto", "pequeno_descentrado")
    v1 = await factory.conferido(
        integrator, await factory.produto(integrator, conta, codigo="SKU-ANTIGA", **RICA, imagens=imagens)
    )
    stored = {f.url: f for f in await Foto.filter(produto_id=v1["id"])}
    old_keys = ("formato", "largura", "altura", "nitidez", "hash")
    for foto in stored.values():
        foto.medidas = {k: foto.medidas[k] for k in old_keys} | {"fundo_claro": 0.5}
        await foto.save(update_fields=["medidas"])
    # and the original of the second is gone from storage
    await factory.runtime.storage.remove(stored[imagens[1]["url"]].arquivo)
    # when a new version re-uses them
    v2 = await factory.conferido(
        integrator,
        await factory.produto(
            integrator, conta, codigo="SKU-ANTIGA", **(RICA | {"garantia": "2 anos"}), imagens=imagens
        ),
    )
    # then the first is measured again, without being stored twice, and warned about as before
    assert v2["versao"] == 2 and await Foto.filter(produto_id=v1["id"]).count() == 2
    banner, small = v2["fotos"]["itens"]
    assert "FOTO_TEXTO_SOBREPOSTO" in {m["codigo"] for m in banner["motivos"]}
    assert (await Foto.get(id=stored[imagens[0]["url"]].id)).medidas["versao"] >= 1
    # and the second keeps its old measures: no new motivo is made up for what they lack
    assert small["situacao"] == "aprovada" and small["motivos"] == []
    r = await resultado(client, integrator, v1["id"])
    assert "GALERIA_PRINCIPAL_RESOLUCAO_EFETIVA_BAIXA" not in codigos(r["galeria"])


async def test_the_warned_gallery_tells_which_image_to_look_at(client, factory, integrator, conta, photo_site):
    # given the small product the check warned about, and a well-framed second photo
    imagens = cenas(photo_site, "pequeno_descentrado", "branco")
    produto = await factory.produto(integrator, conta, **RICA, imagens=imagens)
    await factory.conferido(integrator, produto)
    # when the gallery is made
    pedido = await factory.pedir(integrator.key, "/v1/galerias", {"produtoId": produto["id"], "quantidadeImagens": 3})
    pronta = await factory.terminada(integrator.key, pedido["id"])
    principal, angulo = pronta["resultados"]["imagens"][:2]
    # then the main image says it enlarged the product, by how much and what to send instead
    assert principal["posicao"] == 1 and len(principal["observacoes"]) == 1
    assert "ampliado" in principal["observacoes"][0] and "×" in principal["observacoes"][0]
    # and the well-framed photo's image carries nothing to look at
    assert angulo["observacoes"] == []
