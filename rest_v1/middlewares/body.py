"""Request bodies: at most 1 MB (413), arrived within the read timeout (408), JSON only (415),
well-formed, interoperable JSON objects (400), numbers every system can hold (422):
graphql_api/core/json_body.py reads them. A client that hangs up while sending its body is
recorded as CLIENT_CLOSED_REQUEST (499), its own doing, never as the service's 500."""

import logging

from aiohttp import web

from graphql_api.core.errors import ApiError
from graphql_api.core.json_body import parse_object
from rest_v1.keys import JSON_BODY, RAW_BODY, REQUEST_ID
from rest_v1.routing import RouteSpec, declares
from vitrine.request_body import BodyReadTimeout, request_timeout

log = logging.getLogger("vitrine.api")

MAX_BODY = 1024 * 1024
_WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _is_json(content_type: str) -> bool:
    return content_type == "application/json" or content_type.endswith("+json")


def _errors_for(spec: RouteSpec) -> tuple[str, ...]:
    return (
        ("INVALID_JSON", "REQUEST_TIMEOUT", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "VALIDATION_FAILED")
        if spec.method in _WITH_BODY
        else ()
    )


@declares(_errors_for)
@web.middleware
async def body_middleware(request: web.Request, handler):
    if request.method not in _WITH_BODY:
        return await handler(request)
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise ApiError("PAYLOAD_TOO_LARGE")
    if request.body_exists:
        try:
            raw = await request.read()  # aiohttp's client_max_size (1 MB) guards chunked bodies
        except BodyReadTimeout:
            raise request_timeout(request) from None
        except ConnectionError:  # the client hung up: nobody to answer, and not our error
            log.info(
                "client closed the connection while sending its body: %s %s (%s)",
                request.method,
                request.path,
                request.get(REQUEST_ID),
            )
            raise ApiError("CLIENT_CLOSED_REQUEST") from None
        request[RAW_BODY] = raw
        if raw.strip():
            if not _is_json(request.content_type):
                raise ApiError(
                    "UNSUPPORTED_MEDIA_TYPE", description=f"Content-Type recebido: {request.content_type or 'nenhum'}."
                )
            request[JSON_BODY] = parse_object(raw)
    return await handler(request)
