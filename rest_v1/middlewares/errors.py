"""The error envelope: every failure, expected or not, leaves as {"error": {...}} with its
catalog type. Unexpected exceptions are logged with the request id and answered 500."""

import asyncio
import logging

from aiohttp import web

from graphql_api.core.errors import CAUSA_NA_CONSULTA, ApiError
from rest_v1.keys import METHODS, REQUEST_ID
from rest_v1.responses import error_response
from rest_v1.routing import API_PREFIX, declares

log = logging.getLogger("vitrine.api")

_HTTP_TYPES = {
    400: "BAD_REQUEST",
    404: "ROUTE_NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
}


def _from_http_exception(request: web.Request, exc: web.HTTPException) -> ApiError:
    headers = {}
    if isinstance(exc, web.HTTPMethodNotAllowed):
        # The router merges the methods of every resource the URL matches (/avisos/teste also
        # matches /avisos/{avisoId}); the declared templates with their parameter patterns say
        # which path this really is. An OPTIONS that is no CORS preflight (middlewares/cors.py)
        # gets this same 405.
        allowed = request.app[METHODS].allowed(request.path.removeprefix(API_PREFIX)) or exc.allowed_methods
        headers["Allow"] = ", ".join(sorted(allowed))
    error_type = _HTTP_TYPES.get(exc.status, "INTERNAL_ERROR" if exc.status >= 500 else "BAD_REQUEST")
    return ApiError(error_type, headers=headers)


def _in_its_words(request: web.Request, error: ApiError) -> ApiError:
    """A 422 about query parameters only says so, not that the body was wrong."""
    if (
        error.type == "VALIDATION_FAILED"
        and error.description is None
        and error.fields
        and all(f.campo in request.query for f in error.fields)
    ):
        error.description = CAUSA_NA_CONSULTA
    return error


@declares(lambda spec: ("INTERNAL_ERROR",))
@web.middleware
async def error_middleware(request: web.Request, handler):
    try:
        return await handler(request)
    except ApiError as error:
        return error_response(request, _in_its_words(request, error))
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        return error_response(request, _from_http_exception(request, exc))
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("unhandled error on %s %s (%s)", request.method, request.path, request.get(REQUEST_ID))
        return error_response(request, ApiError("INTERNAL_ERROR"))
