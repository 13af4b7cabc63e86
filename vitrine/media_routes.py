"""Signed media links: /midia/<storage key>?exp=<unix seconds>&sig=<hmac>. An expired or tampered
link gets 403 and no file; Range requests are served (aiohttp's FileResponse)."""

from aiohttp import web

from vitrine.infra.storage import MediaStorage
from vitrine.keys import RUNTIME


async def signed_media(request: web.Request) -> web.StreamResponse:
    storage = request.app[RUNTIME].storage
    if not isinstance(storage, MediaStorage):  # an S3 store's links go straight to the bucket
        raise web.HTTPNotFound()
    key = request.match_info["key"]
    if not storage.verify(key, request.query.get("exp", ""), request.query.get("sig", "")):
        return web.json_response(
            {
                "error": {
                    "type": "FORBIDDEN",
                    "message": "Link expirado ou inválido.",
                    "description": "O link assinado expirou (veja expiraEm) ou foi alterado.",
                    "fields": [],
                    "documentation": f"{request.app[RUNTIME].settings.docs_url}/erros#FORBIDDEN",
                }
            },
            status=403,
        )
    try:
        path = storage.path(key)
    except ValueError:
        raise web.HTTPNotFound() from None
    if not path.is_file():
        raise web.HTTPNotFound()
    return web.FileResponse(path, headers={"Cache-Control": "private, max-age=300"})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/midia/{key:.+}", signed_media)
