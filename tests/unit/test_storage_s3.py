"""The S3 store against the run's real S3 server (moto's standalone server, started by the
harness on the PostgreSQL + Redis leg): objects round-trip, presigned links serve the bytes over
HTTP and expire, big files go up in parts and come down in chunks."""

import os
import time
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from vitrine.infra.storage import PART_SIZE, S3MediaStorage
from vitrine.settings import Settings

pytestmark = pytest.mark.skipif(
    not os.environ.get("VITRINE_STORAGE_URL", "").startswith("s3://"),
    reason="needs the run's S3 server: runs on the PostgreSQL + Redis leg",
)


@pytest.fixture
async def store(tmp_path):
    settings = Settings()
    store = S3MediaStorage(
        settings.storage_url.rstrip("/") + "/unidade",
        tmp_path / "cache",
        endpoint_url=settings.s3_endpoint_url,
        region=settings.s3_region,
        access_key_id=settings.s3_access_key_id,
        secret_access_key=settings.s3_secret_access_key,
    )
    yield store
    await store.close()


async def test_objects_round_trip_and_a_missing_one_is_file_not_found(store):
    await store.put("a/b.txt", b"conteudo")
    assert await store.has("a/b.txt") and await store.get("a/b.txt") == b"conteudo"
    assert (await store.local_file("a/b.txt")).read_bytes() == b"conteudo"
    await store.remove("a/b.txt")
    assert not await store.has("a/b.txt")
    with pytest.raises(FileNotFoundError):
        await store.get("a/b.txt")
    with pytest.raises(ValueError):
        store.object_key("../fora")


async def test_a_presigned_link_serves_the_bytes_is_stable_within_the_minute_and_says_its_expiry(store):
    await store.put("links/x.jpg", b"\xff\xd8imagem")
    antes = time.time()
    url, expira = store.signed_url("links/x.jpg")
    assert url.startswith(store.media_origin) and "X-Amz-Signature=" in url
    assert store.signed_url("links/x.jpg")[0] == url and expira.timestamp() % 60 == 0
    # valid for at least the hour, until the whole minute after it (S3 enforces both; moto does not
    # check signatures, so the link's own terms are what is asserted here)
    segundos = int(parse_qs(urlsplit(url).query)["X-Amz-Expires"][0])
    assert 3600 <= segundos <= 3600 + 61 and abs(antes + segundos - expira.timestamp()) <= 2
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200 and await response.read() == b"\xff\xd8imagem"


async def test_a_big_file_goes_up_in_parts_and_comes_back_whole(store, tmp_path):
    grande = tmp_path / "video.mp4"
    with grande.open("wb") as file:
        for n in range(5):  # 2.5 parts
            file.write(bytes([n]) * (PART_SIZE // 2))
    await store.put_file("videos/v.mp4", grande)
    s3 = await store._s3()
    head = await s3.head_object(Bucket=store.bucket, Key=store.object_key("videos/v.mp4"))
    assert head["ETag"].strip('"').endswith("-3")  # S3's mark of a three-part upload
    assert head["ContentLength"] == grande.stat().st_size
    copia = await store.local_file("videos/v.mp4")
    assert copia != grande and copia.read_bytes() == grande.read_bytes()
    # what a renderer writes under its work directory is published under the same keys
    pasta = store.work_dir("geracoes/ger_x")
    (pasta / "sub").mkdir(parents=True)
    (pasta / "sub" / "1.jpg").write_bytes(b"um")
    assert await store.publish("geracoes/ger_x") == ["geracoes/ger_x/sub/1.jpg"]
    assert await store.get("geracoes/ger_x/sub/1.jpg") == b"um"
