"""Media orders from the integrator's side: real galleries, videos and edits rendered by tasks,
credits reserved, captured and released, idempotent creation, recovery of stuck work."""

import asyncio
import io
from datetime import UTC, datetime, timedelta

from PIL import Image

from graphql_api.core.principal import Ambiente
from graphql_api.evento.models import Evento
from graphql_api.geracao import service as geracoes
from graphql_api.geracao.models import Geracao
from graphql_api.geracao.render.media import loudness, probe
from tests.api.test_auth import assert_error
from tests.factories import auth, eventually, fetch_media
from tests.fichas import RICA, fotos
from tests.render.helpers import watermark_contrast


async def saldo(client, key) -> dict:
    return (await (await client.get("/v1/saldo", headers=auth(key))).json())["data"]


async def download(client, url: str) -> bytes:
    status, _, body = await fetch_media(client, url)
    assert status == 200
    return body


async def test_gallery_in_teste_end_to_end(client, factory, integrator, aprovado):
    # without Idempotency-Key: refused before anything happens
    response = await client.post(
        "/v1/galerias", json={"produtoId": aprovado["id"], "quantidadeImagens": 3}, headers=integrator.headers
    )
    assert response.status == 400
    assert_error(await response.json(), "IDEMPOTENCY_KEY_REQUIRED")
    # a size the check did not approve
    response = await client.post(
        "/v1/galerias",
        json={"produtoId": aprovado["id"], "quantidadeImagens": 4},
        headers=auth(integrator.key, **{"Idempotency-Key": "galeria-quatro"}),
    )
    assert response.status == 422
    field = (await response.json())["error"]["fields"][0]
    assert field["campo"] == "quantidadeImagens" and "3, 5, 7, 10" in field["mensagem"]
    # ordered: queued, credits reserved in the same step
    criada = await factory.pedir(
        integrator.key,
        "/v1/galerias",
        {"produtoId": aprovado["id"], "quantidadeImagens": 3},
        idempotency_key="galeria-tres",
    )
    assert criada["id"].startswith("ger_") and criada["tipo"] == "galeria" and criada["ambiente"] == "teste"
    assert criada["creditosReservados"] == 6 and criada["situacao"] in ("na_fila", "processando", "concluida")
    # then rendered
    pronta = await factory.terminada(integrator.key, criada["id"])
    assert pronta["situacao"] == "concluida" and pronta["progresso"] == {"etapa": "entregue", "percentual": 100}
    assert pronta["creditosCobrados"] == 6 and pronta["erro"] is None
    imagens = pronta["resultados"]["imagens"]
    assert [i["posicao"] for i in imagens] == [1, 2, 3] and imagens[0]["tipo"] == "principal"
    for imagem in imagens:
        assert imagem["id"].startswith("img_") and (imagem["largura"], imagem["altura"]) == (600, 600)
        with Image.open(io.BytesIO(await download(client, imagem["url"]))) as picture:
            assert picture.format == "JPEG" and picture.size == (600, 600)
    # fresh links on every read
    again = (await (await client.get(f"/v1/geracoes/{criada['id']}", headers=integrator.headers)).json())["data"]
    assert again["resultados"]["imagens"][0]["id"] == imagens[0]["id"]
    # credits: reserved then captured; the ledger tells it
    wallet = await saldo(client, integrator.key)
    assert (wallet["creditosDisponiveis"], wallet["creditosReservados"]) == (994, 0)
    extrato = (await (await client.get("/v1/extrato", headers=integrator.headers)).json())["data"]
    assert [(e["tipo"], e["geracaoId"]) for e in extrato[:2]] == [("captura", criada["id"]), ("reserva", criada["id"])]
    # the event for notices, and the integration step
    evento = await Evento.get(integrador_id=integrator.id, tipo="geracao.concluida")
    assert evento.dados["id"] == criada["id"] and evento.dados["creditosCobrados"] == 6
    status = (await (await client.get("/v1/integracao/status", headers=integrator.headers)).json())["data"]
    assert next(e for e in status["etapas"] if e["codigo"] == "GALERIA_TESTE")["situacao"] == "ok"


async def test_repeated_order_is_replayed_and_charged_once(client, factory, integrator, aprovado):
    body = {"produtoId": aprovado["id"], "quantidadeImagens": 3}
    headers = auth(integrator.key, **{"Idempotency-Key": "pedido-repetido-1"})
    first, second = await asyncio.gather(
        client.post("/v1/galerias", json=body, headers=headers), client.post("/v1/galerias", json=body, headers=headers)
    )
    assert sorted([first.status, second.status]) in ([201, 409], [201, 201])
    winner = first if first.status == 201 else second
    geracao_id = (await winner.json())["data"]["id"]
    replay = await client.post("/v1/galerias", json=body, headers=headers)
    assert replay.status == 201 and replay.headers["Idempotent-Replayed"] == "true"
    assert (await replay.json())["data"]["id"] == geracao_id
    assert await Geracao.filter(integrador_id=integrator.id).count() == 1
    assert (await saldo(client, integrator.key))["creditosReservados"] + (await saldo(client, integrator.key))[
        "creditosDisponiveis"
    ] == 1000


async def test_refusals_before_anything_is_reserved(client, factory, integrator, photo_site):
    conta = await factory.conta(integrator)
    key = {"Idempotency-Key": "recusa-001"}
    # unknown product
    response = await client.post(
        "/v1/galerias",
        json={"produtoId": "prd_nao_existe", "quantidadeImagens": 3},
        headers=auth(integrator.key, **key),
    )
    assert response.status == 404
    # check still running (its photo answers only after 1.5 s)
    lento = await factory.produto(integrator, conta, **RICA, imagens=fotos(photo_site, 1, 2, 3, atraso=1.5))
    response = await client.post(
        "/v1/galerias",
        json={"produtoId": lento["id"], "quantidadeImagens": 3},
        headers=auth(integrator.key, **{"Idempotency-Key": "recusa-002"}),
    )
    assert response.status == 409
    assert_error(await response.json(), "CHECK_NOT_READY")
    # a media type the check rejected: the blocking pendencias come in fields
    sem_fotos = await factory.conferido(integrator, await factory.produto(integrator, conta, nome="Sem fotos"))
    response = await client.post(
        "/v1/videos",
        json={"produtoId": sem_fotos["id"], "tipo": "apresentacao"},
        headers=auth(integrator.key, **{"Idempotency-Key": "recusa-003"}),
    )
    assert response.status == 409
    body = await response.json()
    assert_error(body, "MEDIA_TYPE_NOT_APPROVED")
    assert body["error"]["fields"] and all(f["codigo"] and f["mensagem"] for f in body["error"]["fields"])
    # bad bodies
    response = await client.post(
        "/v1/videos",
        json={"produtoId": sem_fotos["id"], "tipo": "cinema", "avatar": "robo"},
        headers=auth(integrator.key, **{"Idempotency-Key": "recusa-004"}),
    )
    assert response.status == 422
    assert {f["campo"] for f in (await response.json())["error"]["fields"]} == {"tipo", "avatar"}
    assert await Geracao.filter(integrador_id=integrator.id).count() == 0
    assert (await saldo(client, integrator.key))["creditosDisponiveis"] == 1000


async def test_production_needs_credits_renders_full_size_without_watermark(
    client, factory, integrator, photo_site, aprovado
):
    live = await factory.key(integrator, ambiente=Ambiente.PRODUCAO)
    conta = (
        await (
            await client.post("/v1/contas", json={"codigoExterno": "prod", "nome": "Loja"}, headers=auth(live))
        ).json()
    )["data"]
    put = await client.put(
        f"/v1/contas/{conta['id']}/produtos/SKU-PROD",
        json=RICA | {"imagens": fotos(photo_site, 1, 2, 3, 4, 5, 6)},
        headers=auth(live),
    )
    produto = await factory.conferido(type("K", (), {"headers": auth(live)})(), (await put.json())["data"])
    body = {"produtoId": produto["id"], "quantidadeImagens": 3}
    response = await client.post(
        "/v1/galerias", json=body, headers=auth(live, **{"Idempotency-Key": "prod-sem-credito"})
    )
    assert response.status == 402
    assert_error(await response.json(), "INSUFFICIENT_CREDITS")
    assert await Geracao.filter(integrador_id=integrator.id, ambiente="producao").count() == 0
    await factory.creditar(integrator, "producao", 100)
    prod = await factory.terminada(live, (await factory.pedir(live, "/v1/galerias", body))["id"])
    teste = await factory.terminada(
        integrator.key,
        (await factory.pedir(integrator.key, "/v1/galerias", {"produtoId": aprovado["id"], "quantidadeImagens": 3}))[
            "id"
        ],
    )
    assert prod["ambiente"] == "producao" and prod["situacao"] == "concluida"
    for p_img, t_img in zip(prod["resultados"]["imagens"], teste["resultados"]["imagens"], strict=True):
        assert (p_img["largura"], p_img["altura"]) == (1200, 1200)
        with (
            Image.open(io.BytesIO(await download(client, p_img["url"]))) as p,
            Image.open(io.BytesIO(await download(client, t_img["url"]))) as t,
        ):
            inside, outside = watermark_contrast(t.convert("RGB"), p.convert("RGB"))
            # The mark is in teste only. The cut-out product fills 85 % of the frame, so less of
            # the mark lies over white, where it shows most: 15 grey levels on average, against
            # about 1 outside it.
            assert inside > 15 and outside < 8, (inside, outside)
    assert (await saldo(client, live))["creditosDisponiveis"] == 94


async def test_presentation_video_with_speech(client, factory, integrator, aprovado):
    criada = await factory.pedir(
        integrator.key, "/v1/videos", {"produtoId": aprovado["id"], "tipo": "apresentacao", "avatar": "automatico"}
    )
    assert criada["tipo"] == "video_apresentacao" and criada["creditosReservados"] == 20
    pronto = await factory.terminada(integrator.key, criada["id"], timeout=120)
    assert pronto["situacao"] == "concluida", pronto["erro"]
    video = pronto["resultados"]["video"]
    assert video["formato"] == "horizontal" and (video["largura"], video["altura"]) == (640, 360)
    assert 15 <= video["duracaoSegundos"] <= 26
    fala = pronto["resultados"]["fala"]
    assert RICA["nome"].split()[0] in fala["texto"] and fala["voz"] and fala["duracaoSegundos"] > 5
    assert pronto["resultados"]["avatar"] in ("legenda", "narrador")
    data = await download(client, video["url"])
    path = factory.runtime.settings.data_dir / f"{criada['id']}.mp4"
    path.write_bytes(data)
    info = probe(path)
    assert info.video_codec == "h264" and info.audio_codec == "aac"
    mean, _peak = loudness(path)
    assert mean > -60  # real speech, not silence
    status, _, parte = await fetch_media(client, video["url"], headers={"Range": "bytes=0-99"})
    assert status == 206 and len(parte) == 100
    vtt = (await download(client, pronto["resultados"]["legendas"]["url"])).decode()
    assert vtt.startswith("WEBVTT")
    status = (await (await client.get("/v1/integracao/status", headers=integrator.headers)).json())["data"]
    assert next(e for e in status["etapas"] if e["codigo"] == "VIDEO_TESTE")["situacao"] == "ok"


async def test_image_edits_on_a_generated_image_and_on_an_approved_photo(client, factory, integrator, aprovado):
    galeria = await factory.terminada(
        integrator.key,
        (await factory.pedir(integrator.key, "/v1/galerias", {"produtoId": aprovado["id"], "quantidadeImagens": 3}))[
            "id"
        ],
    )
    alvo = galeria["resultados"]["imagens"][0]["id"]
    pedido = {"operacoes": [{"tipo": "enquadrar", "formato": "retrato_1080x1350"}, {"tipo": "ajuste", "brilho": 10}]}
    editada = await factory.terminada(
        integrator.key, (await factory.pedir(integrator.key, f"/v1/imagens/{alvo}/edicoes", pedido))["id"]
    )
    assert (
        editada["tipo"] == "edicao_imagem" and editada["situacao"] == "concluida" and editada["creditosCobrados"] == 1
    )
    [imagem] = editada["resultados"]["imagens"]
    assert (imagem["largura"], imagem["altura"]) == (540, 675)  # teste: half of 1080×1350
    foto_id = aprovado["fotos"]["itens"][1]["id"]
    assert foto_id.startswith("img_")
    fundo = await factory.terminada(
        integrator.key,
        (
            await factory.pedir(
                integrator.key, f"/v1/imagens/{foto_id}/edicoes", {"operacoes": [{"tipo": "fundo_branco"}]}
            )
        )["id"],
    )
    assert fundo["situacao"] == "concluida"
    # an image of someone else, and a bad request
    stranger = await factory.integrator()
    response = await client.post(
        f"/v1/imagens/{alvo}/edicoes", json=pedido, headers=auth(stranger.key, **{"Idempotency-Key": "alheia-001"})
    )
    assert response.status == 404
    response = await client.post(
        f"/v1/imagens/{alvo}/edicoes",
        json={"operacoes": [{"tipo": "girar"}]},
        headers=auth(integrator.key, **{"Idempotency-Key": "ruim-0001"}),
    )
    assert response.status == 422


async def test_partial_delivery_charges_only_what_was_delivered(client, factory, integrator, aprovado):
    # the file of one approved photo disappears before rendering: the image that shows it fails
    segunda = aprovado["fotos"]["itens"][1]["id"]
    from graphql_api.imagem.models import Imagem

    arquivo = (await Imagem.get(id=segunda)).arquivo
    await factory.runtime.storage.remove(arquivo)
    parcial = await factory.terminada(
        integrator.key,
        (await factory.pedir(integrator.key, "/v1/galerias", {"produtoId": aprovado["id"], "quantidadeImagens": 3}))[
            "id"
        ],
    )
    assert parcial["situacao"] == "parcial"
    assert len(parcial["resultados"]["imagens"]) == 2 and parcial["creditosCobrados"] == 4
    assert parcial["erro"]["codigo"] == "SAIDAS_FALHARAM" and parcial["erro"]["falhas"]
    wallet = await saldo(client, integrator.key)
    assert (wallet["creditosDisponiveis"], wallet["creditosReservados"]) == (996, 0)
    assert (await Evento.get(tipo="geracao.concluida", integrador_id=integrator.id)).dados["situacao"] == "parcial"


async def test_failure_releases_the_credits_and_is_announced(client, factory, integrator, aprovado):
    from graphql_api.imagem.models import Imagem

    for item in aprovado["fotos"]["itens"]:
        await factory.runtime.storage.remove((await Imagem.get(id=item["id"])).arquivo)
    falhou = await factory.terminada(
        integrator.key,
        (await factory.pedir(integrator.key, "/v1/galerias", {"produtoId": aprovado["id"], "quantidadeImagens": 3}))[
            "id"
        ],
    )
    assert falhou["situacao"] == "falhou" and falhou["creditosCobrados"] == 0 and falhou["erro"]["codigo"]
    wallet = await saldo(client, integrator.key)
    assert (wallet["creditosDisponiveis"], wallet["creditosReservados"]) == (1000, 0)
    assert await Evento.filter(tipo="geracao.falhou", integrador_id=integrator.id).count() == 1


async def test_a_generation_whose_worker_died_is_resumed_or_failed(client, factory, integrator, aprovado):
    now = datetime.now(UTC)
    # given a generation a worker took and then died with (lease expired)
    criada = await factory.pedir(integrator.key, "/v1/galerias", {"produtoId": aprovado["id"], "quantidadeImagens": 3})
    await factory.terminada(integrator.key, criada["id"])
    await Geracao.filter(id=criada["id"]).update(
        situacao="processando", tentativas=1, reservada_ate=now - timedelta(seconds=1), resultados={}
    )
    # when the sweep runs, it is queued again and delivered (the sweep covers the whole database:
    # a generation another test left behind may be queued with it)
    assert (await geracoes.varrer())["reenfileiradas"] >= 1

    async def delivered():
        assert (await Geracao.get(id=criada["id"])).situacao == "concluida"

    await eventually(delivered, timeout=60)
    # and one that keeps dying is failed, its credits released
    other = await factory.pedir(integrator.key, "/v1/galerias", {"produtoId": aprovado["id"], "quantidadeImagens": 3})
    await factory.terminada(integrator.key, other["id"])
    reserved_before = (await saldo(client, integrator.key))["creditosDisponiveis"]
    await Geracao.filter(id=other["id"]).update(
        situacao="processando", tentativas=geracoes.MAX_ATTEMPTS, reservada_ate=now - timedelta(seconds=1)
    )
    assert (await geracoes.varrer())["falharam"] >= 1
    assert (await Geracao.get(id=other["id"])).situacao == "falhou"
    assert (await saldo(client, integrator.key))["creditosDisponiveis"] >= reserved_before
