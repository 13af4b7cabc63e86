"""The OpenAPI 3.1 document of /v1, built from what the code already declares: each route's
spec (rest_v1/routing.py), request bodies from their pydantic models, response objects from the
GraphQL types the handlers return, and error responses from the error catalog."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from aiohttp import web
from graphql import (
    GraphQLEnumType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
)
from pydantic import BaseModel

from graphql_api.core.errors import CATALOG
from graphql_api.creditos.service import CREDIT_SPENDING_ENDPOINTS
from rest_v1.keys import RUNTIME
from rest_v1.routing import Routes

routes = Routes("Referência")

_SCALARS = {
    "String": {"type": "string"},
    "ID": {"type": "string"},
    "Int": {"type": "integer"},
    "Float": {"type": "number"},
    "Boolean": {"type": "boolean"},
    "Timestamp": {"type": "string", "format": "date-time"},
    "JSON": {},
}

_ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["type", "message", "description", "fields", "documentation"],
            "properties": {
                "type": {"type": "string", "enum": sorted(CATALOG)},
                "message": {"type": "string"},
                "description": {"type": "string"},
                "fields": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["campo", "codigo", "mensagem"],
                        "properties": {
                            "campo": {"type": "string"},
                            "codigo": {"type": "string"},
                            "mensagem": {"type": "string"},
                            "id": {"type": "string", "description": "existing resource (codigo ja_existe)"},
                        },
                    },
                },
                "documentation": {"type": "string", "format": "uri"},
            },
        }
    },
}

# Errors any authenticated route can answer.
_COMMON_ERRORS = ("UNAUTHORIZED", "INTEGRATOR_PAUSED", "TOO_MANY_REQUESTS", "INTERNAL_ERROR")
_BODY_ERRORS = ("INVALID_JSON", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE")


def _type_schema(graphql_type: Any, components: dict[str, Any]) -> dict[str, Any]:
    nullable = not isinstance(graphql_type, GraphQLNonNull)
    inner = graphql_type.of_type if not nullable else graphql_type
    if isinstance(inner, GraphQLList):
        schema: dict[str, Any] = {"type": "array", "items": _type_schema(inner.of_type, components)}
    elif isinstance(inner, GraphQLObjectType):
        _object_component(inner, components)
        schema = {"$ref": f"#/components/schemas/{inner.name}"}
    elif isinstance(inner, GraphQLEnumType):
        schema = {"type": "string", "enum": list(inner.values)}
    elif isinstance(inner, GraphQLScalarType):
        schema = dict(_SCALARS.get(inner.name, {}))
    else:
        schema = {}
    if nullable:
        return {"anyOf": [schema, {"type": "null"}]} if schema else {}
    return schema


def _object_component(graphql_type: GraphQLObjectType, components: dict[str, Any]) -> None:
    if graphql_type.name in components:
        return
    components[graphql_type.name] = {}  # placeholder against recursion
    properties = {name: _type_schema(field.type, components) for name, field in graphql_type.fields.items()}
    required = [name for name, field in graphql_type.fields.items() if isinstance(field.type, GraphQLNonNull)]
    components[graphql_type.name] = {
        "type": "object",
        "description": graphql_type.description or "",
        "properties": properties,
        "required": required,
    }


def _body_schema(body: Any, components: dict[str, Any]) -> dict[str, Any]:
    if isinstance(body, type) and issubclass(body, BaseModel):
        schema = body.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, definition in schema.pop("$defs", {}).items():
            components.setdefault(name, definition)
        components.setdefault(body.__name__, schema)
        return {"$ref": f"#/components/schemas/{body.__name__}"}
    return body


def _error_responses(types: tuple[str, ...]) -> dict[str, Any]:
    by_status: dict[int, list[str]] = {}
    for error_type in types:
        by_status.setdefault(CATALOG[error_type].status, []).append(error_type)
    return {
        str(status): {
            "description": "; ".join(f"{t}: {CATALOG[t].message}" for t in sorted(names)),
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Erro"}}},
        }
        for status, names in sorted(by_status.items())
    }


@lru_cache(maxsize=4)
def build(api_url: str, docs_url: str) -> dict[str, Any]:
    from graphql_api.schema import schema
    from rest_v1.app import ROUTE_MODULES

    graphql_types = schema._schema.type_map
    components: dict[str, Any] = {"Erro": _ERROR_SCHEMA}
    paths: dict[str, Any] = {}
    for module in ROUTE_MODULES:
        for spec in module.specs:
            operation: dict[str, Any] = {
                "tags": [spec.tag],
                "summary": spec.summary,
                "operationId": spec.handler.__name__,
            }
            if spec.description:
                operation["description"] = spec.description
            parameters = [
                {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
                for name in _path_params(spec.path)
            ] + [{"name": name, "in": "query", "required": False, "schema": {"type": "string"}} for name in spec.query]
            if spec.method == "POST" and not spec.public:
                parameters.append({
                    "name": "Idempotency-Key", "in": "header",
                    "required": spec.path in CREDIT_SPENDING_ENDPOINTS,
                    "schema": {"type": "string", "pattern": "^[A-Za-z0-9_\\-:.]{8,120}$"},
                })
            if parameters:
                operation["parameters"] = parameters
            if spec.body is not None:
                operation["requestBody"] = {
                    "required": True,
                    "content": {"application/json": {"schema": _body_schema(spec.body, components)}},
                }
            data_schema: dict[str, Any] = {}
            if spec.response is not None:
                _object_component(graphql_types[spec.response], components)
                data_schema = {"$ref": f"#/components/schemas/{spec.response}"}
            if spec.list_response and spec.paginated:
                body_schema = {
                    "type": "object",
                    "properties": {"data": {"type": "array", "items": data_schema}, "paginacao": {"$ref": "#/components/schemas/Paginacao"}},
                }
                _object_component(graphql_types["Paginacao"], components)
            elif spec.list_response:
                body_schema = {"type": "object", "properties": {"data": {"type": "array", "items": data_schema}}}
            elif spec.response is not None:
                body_schema = {"type": "object", "properties": {"data": data_schema}}
            else:
                body_schema = {"type": "object"}
            errors = spec.errors if spec.public else tuple(dict.fromkeys(spec.errors + _COMMON_ERRORS + (_BODY_ERRORS if spec.body is not None else ())))
            success = {"description": "Sucesso", "content": {"application/json": {"schema": body_schema}}}
            operation["responses"] = {
                str(spec.status): {"description": "Sucesso, sem corpo"} if spec.status == 204 else success,
                **{str(status): success | {"description": meaning} for status, meaning in spec.also},
                **_error_responses(errors),
            }
            if not spec.public:
                operation["security"] = [{"chaveOuToken": []}]
            paths.setdefault(spec.path, {})[spec.method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Vitrine — API de mídia para anúncios",
            "version": "1",
            "description": f"Contrato de integração. Erros: {docs_url}/erros. Guia: {docs_url}.",
        },
        "servers": [{"url": api_url}],
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "chaveOuToken": {
                    "type": "http", "scheme": "bearer",
                    "description": "Chave de API (sk_test_…/sk_live_…) ou token OAuth (oat_test_…/oat_live_…).",
                }
            },
        },
    }


def _path_params(path: str) -> list[str]:
    return [part[1:-1] for part in path.split("/") if part.startswith("{") and part.endswith("}")]


@routes.get("/openapi.json", summary="Este documento OpenAPI 3.1", public=True)
async def openapi_document(request: web.Request) -> web.Response:
    settings = request.app[RUNTIME].settings
    return web.json_response(build(settings.api_url, settings.docs_url))
