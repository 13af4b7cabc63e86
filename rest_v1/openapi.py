"""The OpenAPI 3.1 document of /v1, built from what the code already declares: each route's
spec (rest_v1/routing.py), request bodies from their pydantic models, response objects from the
GraphQL types the handlers return, error responses from the error catalog, and the notices
(`webhooks`) from their payload models (graphql_api/evento/payloads.py) and samples."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from aiohttp import web
from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLEnumType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
    OperationDefinitionNode,
    SelectionSetNode,
    parse,
)
from pydantic import BaseModel

from graphql_api.core.errors import CATALOG
from graphql_api.evento import amostras, payloads
from graphql_api.evento.catalog import EVENT_TYPES, TEST_EVENT
from graphql_api.oauth.escopos import DESCRICOES
from graphql_api.operations import fragments
from rest_v1.middlewares import idempotency
from rest_v1.routing import DECLARED_ERRORS, PATH_PARAMETERS, Routes, RouteSpec, path_parameters
from vitrine.keys import RUNTIME

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

# The error body, in named components so that generated clients get named types (TipoErro is
# the catalog's list of types: a client can have one exception per type).
_ERROR_COMPONENTS: dict[str, Any] = {
    "TipoErro": {"type": "string", "enum": sorted(CATALOG)},
    "CampoErro": {
        "type": "object",
        "required": ["campo", "codigo", "mensagem"],
        "properties": {
            "campo": {"type": "string"},
            "codigo": {"type": "string"},
            "mensagem": {"type": "string"},
            "id": {"type": "string", "description": "existing resource (codigo ja_existe)"},
        },
    },
    "DetalheErro": {
        "type": "object",
        "required": ["type", "message", "description", "fields", "documentation"],
        "properties": {
            "type": {"$ref": "#/components/schemas/TipoErro"},
            "message": {"type": "string"},
            "description": {"type": "string"},
            "fields": {"type": "array", "items": {"$ref": "#/components/schemas/CampoErro"}},
            "documentation": {"type": "string", "format": "uri"},
        },
    },
    "Erro": {
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"$ref": "#/components/schemas/DetalheErro"}},
    },
}


def _output_schema(
    graphql_type: Any, selection: SelectionSetNode | None, fragments: dict, components: dict
) -> dict[str, Any]:
    nullable = not isinstance(graphql_type, GraphQLNonNull)
    inner = graphql_type.of_type if not nullable else graphql_type
    if isinstance(inner, GraphQLList):
        schema: dict[str, Any] = {
            "type": "array",
            "items": _output_schema(inner.of_type, selection, fragments, components),
        }
    elif isinstance(inner, GraphQLObjectType):
        assert selection is not None, "an object type is always selected with its fields"
        schema = _selection_component(inner, selection, fragments, components)
    elif isinstance(inner, GraphQLEnumType):
        schema = {"type": "string", "enum": list(inner.values)}
    elif isinstance(inner, GraphQLScalarType):
        schema = dict(_SCALARS.get(inner.name, {}))
    else:
        schema = {}
    if nullable:
        return {"anyOf": [schema, {"type": "null"}]} if schema else {}
    return schema


def _selection_object(graphql_type: GraphQLObjectType, selection: SelectionSetNode, fragments: dict, components: dict):
    properties: dict[str, Any] = {}
    required: list[str] = []
    for node in selection.selections:
        if isinstance(node, FragmentSpreadNode):
            spread = _selection_object(graphql_type, fragments[node.name.value].selection_set, fragments, components)
            properties |= spread["properties"]
            required += [name for name in spread["required"] if name not in required]
            continue
        assert isinstance(node, FieldNode), "only fields and fragment spreads in the facade's selections"
        field = graphql_type.fields[node.name.value]
        name = node.alias.value if node.alias else node.name.value
        properties[name] = _output_schema(field.type, node.selection_set, fragments, components)
        if isinstance(field.type, GraphQLNonNull) and name not in required:
            required.append(name)
    # No other field: an answer carrying more than the document shows fails the conformance test.
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _selection_component(
    graphql_type: GraphQLObjectType, selection: SelectionSetNode, fragments: dict, components: dict
):
    """The schema of a selection on an object type, kept as a component named after the type;
    one type selected two different ways would need two names, so that is refused."""
    schema = {"description": graphql_type.description or ""} | _selection_object(
        graphql_type, selection, fragments, components
    )
    if components.setdefault(graphql_type.name, schema) != schema:
        raise ValueError(f"{graphql_type.name} is selected with two different sets of fields")
    return {"$ref": f"#/components/schemas/{graphql_type.name}"}


def _response_schema(spec: RouteSpec, response: str, graphql_types: dict, components: dict) -> dict[str, Any]:
    """The schema of `data` for the route's response text: the fields of the fragment the handler selects (the one no other
    fragment of its text spreads), plus what the handler adds (response_extra)."""
    document = parse(response)
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    spread = {node.name.value for d in fragments.values() for node in _spreads(d.selection_set)}
    (main,) = [d for name, d in fragments.items() if name not in spread]
    graphql_type = graphql_types[main.type_condition.name.value]
    ref = _selection_component(graphql_type, main.selection_set, fragments, components)
    if not spec.response_extra:
        return ref
    schema = dict(components[graphql_type.name])
    properties = dict(schema["properties"])
    for type_name, field_name in spec.response_extra:
        field = graphql_types[type_name].fields[field_name]
        properties[field_name] = _output_schema(field.type, None, {}, components)
    return schema | {"properties": properties}


def _spreads(selection: SelectionSetNode | None):
    for node in selection.selections if selection else ():
        if isinstance(node, FragmentSpreadNode):
            yield node
        elif isinstance(node, FieldNode):
            yield from _spreads(node.selection_set)


def _paginacao_schema(graphql_types: dict, components: dict) -> dict[str, Any]:
    document = parse("{ " + fragments.PAGINACAO + " }")
    operation = document.definitions[0]
    assert isinstance(operation, OperationDefinitionNode)
    (paginacao,) = operation.selection_set.selections
    assert isinstance(paginacao, FieldNode) and paginacao.selection_set is not None
    return _selection_component(graphql_types["Paginacao"], paginacao.selection_set, {}, components)


def _middleware_errors(spec: RouteSpec) -> tuple[str, ...]:
    """What the middlewares can answer on this route, each by its own rule (rest_v1/routing.declares)."""
    from rest_v1.app import MIDDLEWARES

    return tuple(
        error
        for middleware in MIDDLEWARES
        if middleware in DECLARED_ERRORS
        for error in DECLARED_ERRORS[middleware](spec)
    )


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


# The two ways in (contract, Authentication), both sent as Authorization: Bearer.
API_KEY_SCHEME = "chaveDeApi"
OAUTH_SCHEME = "oauth"
INTEGRATOR_ONLY_NOTE = "Exclusiva do integrador (chave de API): um token OAuth recebe 403 FORBIDDEN."


def _security_schemes(base_url: str) -> dict[str, Any]:
    return {
        API_KEY_SCHEME: {
            "type": "http",
            "scheme": "bearer",
            "description": "Chave de API do integrador (sk_test_…/sk_live_…), com todos os escopos: "
            "todas as operações, nas subcontas e contas vinculadas do integrador.",
        },
        OAUTH_SCHEME: {
            "type": "oauth2",
            "description": "Token OAuth (oat_test_…/oat_live_…) de um vendedor que autorizou o aplicativo "
            "(authorization code com PKCE S256), enviado como Bearer: vê só a conta vinculada, nas "
            "operações que listam este esquema e com o escopo que cada uma pede; fora do escopo, 403 "
            "FORBIDDEN com o escopo em error.fields.",
            "flows": {
                "authorizationCode": {
                    "authorizationUrl": f"{base_url}/oauth/autorizar",
                    "tokenUrl": f"{base_url}/oauth/token",
                    "refreshUrl": f"{base_url}/oauth/token",
                    "scopes": dict(DESCRICOES),  # the OAuth scopes, as the consent screen says them
                }
            },
        },
    }


def _security(spec: RouteSpec) -> list[dict[str, list[str]]]:
    """The API key opens every operation; an OAuth token those outside OAuth rule 5, with the
    route's scope (none listed: any token of the linked account)."""
    api_key: dict[str, list[str]] = {API_KEY_SCHEME: []}
    if spec.integrator_only:
        return [api_key]
    return [api_key, {OAUTH_SCHEME: [spec.scope] if spec.scope else []}]


def _description(spec: RouteSpec) -> str:
    return " ".join(part for part in (spec.description, INTEGRATOR_ONLY_NOTE if spec.integrator_only else "") if part)


@lru_cache(maxsize=4)
def _sse_schema(events: tuple[str, ...]) -> dict[str, Any]:
    """One server-sent event (its fields as the stream sends them): the data of each is JSON."""
    return {
        "type": "object",
        "required": ["event", "data"],
        "properties": {
            "event": {"type": "string", "enum": list(events)},
            "data": {"type": "string", "contentMediaType": "application/json"},
            "id": {"type": "string"},
        },
    }


def _add_component(components: dict[str, Any], name: str, schema: dict[str, Any]) -> None:
    if components.setdefault(name, schema) != schema:
        raise ValueError(f"two different schemas are named {name}")


def _payload_schema(tipo: str, components: dict[str, Any]) -> dict[str, Any]:
    """The body of a notice of `tipo`: its envelope model as it is serialised (what is sent), in
    named components."""
    model = payloads.envelope(tipo)
    schema = model.model_json_schema(mode="serialization", ref_template="#/components/schemas/{model}")
    for name, definition in schema.pop("$defs", {}).items():
        _add_component(components, name, definition)
    _add_component(components, model.__name__, schema)
    return {"$ref": f"#/components/schemas/{model.__name__}"}


# The Standard Webhooks headers of every delivery (docs/avisos.md, "Assinatura").
_SIGNATURE = {"type": "string", "pattern": r"^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$"}
_NOTICE_HEADERS: list[dict[str, Any]] = [
    {
        "name": "webhook-id",
        "in": "header",
        "required": True,
        "description": "Id da entrega (`ent_…`; `tst_…` nos testes de avisos), o mesmo em todas as tentativas: "
        "use-o para não processar a mesma entrega duas vezes.",
        "schema": {"type": "string"},
    },
    {
        "name": "webhook-timestamp",
        "in": "header",
        "required": True,
        "description": "Segundos Unix do momento da tentativa. Recuse um valor a mais de 5 minutos do seu relógio.",
        "schema": {"type": "string", "pattern": "^[0-9]+$"},
    },
    {
        "name": "webhook-signature",
        "in": "header",
        "required": True,
        "description": "`v1,` e o base64 do HMAC-SHA256 de `<webhook-id>.<webhook-timestamp>.<corpo cru>`, com a "
        "chave igual aos bytes do base64 que vem depois de `whsec_` no segredo; durante a rotação do segredo, "
        "duas assinaturas separadas por espaço. Compare em tempo constante.",
        "schema": _SIGNATURE,
    },
    {
        "name": "X-Vitrine-Signature",
        "in": "header",
        "required": True,
        "description": "O mesmo valor de `webhook-signature`.",
        "schema": _SIGNATURE,
    },
]
_REFUSAL = (
    "Recusa: a assinatura não confere ou `webhook-timestamp` está a mais de 5 minutos do seu relógio. "
    "Responda 400, 401 ou 403."
)
_NOTICE_RESPONSES: dict[str, Any] = {
    "2XX": {
        "description": "Entrega aceita. Responda em até 10 segundos (processe depois, numa fila sua); qualquer "
        "outra resposta, ou nenhuma, agenda uma nova tentativa com o mesmo `webhook-id` e o mesmo corpo."
    },
    "400": {"description": _REFUSAL},
    "401": {"description": _REFUSAL},
    "403": {"description": _REFUSAL},
    "410": {"description": "O endereço não quer mais avisos: ele é desativado na hora."},
}


def _webhooks(components: dict[str, Any], docs_url: str) -> dict[str, Any]:
    """One notice per event type (and the test deliveries' aviso.teste): the body from its model,
    an example from its sample, the signature headers and the answers the service expects."""
    webhooks: dict[str, Any] = {}
    for tipo in [*EVENT_TYPES, TEST_EVENT]:
        model = payloads.DADOS[tipo]
        webhooks[tipo] = {
            "post": {
                "tags": ["Avisos"],
                "summary": tipo,
                "operationId": "aviso_" + tipo.replace(".", "_"),
                "description": " ".join((model.__doc__ or "").split())
                + f" Assinatura, novas tentativas e exemplos: {docs_url}/avisos.",
                "parameters": _NOTICE_HEADERS,
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": _payload_schema(tipo, components),
                            "example": amostras.exemplo(tipo),
                        }
                    },
                },
                "responses": _NOTICE_RESPONSES,
            }
        }
    return webhooks


def build(base_url: str, api_url: str, docs_url: str) -> dict[str, Any]:
    from graphql_api.schema import schema
    from rest_v1.app import ROUTE_MODULES

    graphql_types = schema._schema.type_map
    components: dict[str, Any] = dict(_ERROR_COMPONENTS)
    paths: dict[str, Any] = {}
    for module in ROUTE_MODULES:
        for spec in module.specs:
            operation: dict[str, Any] = {
                "tags": [spec.tag],
                "summary": spec.summary,
                "operationId": spec.handler.__name__,
            }
            if description := _description(spec):
                operation["description"] = description
            parameters = [
                {"name": name, "in": "path", "required": True, "schema": PATH_PARAMETERS[name]}
                for name in path_parameters(spec.path)
            ] + [
                {"name": name, "in": "query", "required": False, "schema": schema}
                for name, schema in spec.query.items()
            ]
            header = idempotency.header_parameter(spec)
            if header is not None:
                parameters.append(header)
            if parameters:
                operation["parameters"] = parameters
            if spec.body is not None:
                operation["requestBody"] = {
                    "required": spec.body_required,
                    "content": {"application/json": {"schema": _body_schema(spec.body, components)}},
                }
            data_schema = (
                _response_schema(spec, spec.response, graphql_types, components) if spec.response is not None else {}
            )
            if spec.list_response and spec.paginated:
                body_schema = {
                    "type": "object",
                    "required": ["data", "paginacao"],
                    "additionalProperties": False,
                    "properties": {
                        "data": {"type": "array", "items": data_schema},
                        "paginacao": _paginacao_schema(graphql_types, components),
                    },
                }
            elif spec.list_response:
                body_schema = {
                    "type": "object",
                    "required": ["data"],
                    "additionalProperties": False,
                    "properties": {"data": {"type": "array", "items": data_schema}},
                }
            elif spec.response is not None:
                body_schema = {
                    "type": "object",
                    "required": ["data"],
                    "additionalProperties": False,
                    "properties": {"data": data_schema},
                }
            else:
                body_schema = {"type": "object"}
            errors = tuple(dict.fromkeys(spec.errors + _middleware_errors(spec)))
            if spec.media_type == "text/event-stream":
                body_schema = _sse_schema(spec.sse_events)
            elif spec.media_type != "application/json":
                body_schema = {"type": "string"}
            success = {"description": "Sucesso", "content": {spec.media_type: {"schema": body_schema}}}
            operation["responses"] = {
                str(spec.status): {"description": "Sucesso, sem corpo"} if spec.status == 204 else success,
                **{str(status): success | {"description": meaning} for status, meaning in spec.also},
                **_error_responses(errors),
            }
            if not spec.public:
                operation["security"] = _security(spec)
            paths.setdefault(spec.path, {})[spec.method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Vitrine — API de mídia para anúncios",
            "version": "1",
            "description": f"Contrato de integração. Erros: {docs_url}/erros. Guia: {docs_url}. "
            f"Chaves de API, tokens OAuth e escopos: {docs_url}/autenticacao.",
        },
        "servers": [{"url": api_url}],
        "paths": paths,
        "webhooks": _webhooks(components, docs_url),
        "components": {
            "schemas": components,
            "securitySchemes": _security_schemes(base_url),
        },
    }


@routes.get("/openapi.json", summary="Este documento OpenAPI 3.1", public=True)
async def openapi_document(request: web.Request) -> web.Response:
    settings = request.app[RUNTIME].settings
    return web.json_response(build(settings.base_url, settings.api_url, settings.docs_url))
