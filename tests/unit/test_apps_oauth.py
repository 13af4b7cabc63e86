"""The rules of an OAuth app's input without HTTP: each redirect URI rule (kept as the exact string
the authorisation request must repeat), scopes, and the typed GraphQL input and enums."""

import pytest

from graphql_api.core.errors import ApiError
from graphql_api.core.principal import Ambiente
from graphql_api.oauth.schemas import EdicaoApp, NovoApp, TipoApp, ler, problemas_redirect_uris
from graphql_api.schema import schema

TESTE, PRODUCAO = Ambiente.TESTE, Ambiente.PRODUCAO


def problema(uri: str, ambiente: Ambiente = TESTE, tipo: TipoApp = TipoApp.confidencial) -> tuple[str, str] | None:
    """(codigo, mensagem) of the one URI, or None when it is accepted."""
    found = problemas_redirect_uris([uri], ambiente, tipo)
    assert len(found) <= 1 and all(f.campo == "redirectUris" for f in found)
    return (found[0].codigo, found[0].mensagem) if found else None


@pytest.mark.parametrize(
    "uri",
    [
        "https://loja.exemplo.com.br/oauth/retorno",
        "https://loja.exemplo.com.br",
        "https://loja.exemplo.com.br:8443/cb?origem=vitrine&x=1",
        "https://LOJA.exemplo.com/Retorno/",  # kept as typed: compared exactly later
        "https://10.0.0.5/cb",
        "https://[2001:db8::1]/cb",
        "https://localhost:8443/cb",
        "https://loja.exemplo.com/%C3%A7",
    ],
)
def test_https_addresses_are_accepted_in_both_environments(uri):
    assert problema(uri, TESTE) is None and problema(uri, PRODUCAO) is None


@pytest.mark.parametrize(
    "uri",
    ["http://localhost:8080/retorno", "http://127.0.0.1:3000", "http://localhost:1/cb?x=1", "http://[::1]:8080/cb"],
)
def test_loopback_over_http_in_test_apps(uri):
    for tipo in TipoApp:
        assert problema(uri, TESTE, tipo) is None


@pytest.mark.parametrize("uri", ["http://localhost:8080/retorno", "http://localhost:1/cb?x=1"])
def test_localhost_never_in_production(uri):
    for tipo in TipoApp:
        assert problema(uri, PRODUCAO, tipo) == (
            "url_nao_https",
            f"Endereço 1 ({uri}): apps de produção só aceitam https://.",
        )


@pytest.mark.parametrize("uri", ["http://127.0.0.1:3000", "http://127.0.0.1/oauth/volta", "http://[::1]/oauth/volta"])
def test_loopback_ip_in_production_only_for_public_apps(uri):
    """RFC 8252 §7.3: a native app (public) listens on the loopback interface; a confidential app
    runs on a server and has an https:// address."""
    assert problema(uri, PRODUCAO, TipoApp.publico) is None
    codigo, mensagem = problema(uri, PRODUCAO, TipoApp.confidencial)
    assert codigo == "url_nao_https" and "confidenciais só aceitam https://" in mensagem and "apps públicos" in mensagem


@pytest.mark.parametrize("uri", ["http://127.0.0.1/cb", "http://[::1]/cb", "http://127.0.0.1"])
def test_a_loopback_ip_needs_no_port_any_port_will_match(uri):
    assert problema(uri, TESTE) is None


@pytest.mark.parametrize(
    "uri", ["com.exemplo.app:/oauth/volta", "br.com.loja-rosa.app:/v", "io.exemplo:/", "com.exemplo.app:/volta?x=1"]
)
def test_a_native_apps_own_scheme_for_public_apps_in_both_environments(uri):
    for ambiente in (TESTE, PRODUCAO):
        assert problema(uri, ambiente, TipoApp.publico) is None
        codigo, mensagem = problema(uri, ambiente, TipoApp.confidencial)
        assert codigo == "formato_invalido" and "só valem para apps públicos" in mensagem


@pytest.mark.parametrize(
    ("uri", "trecho"),
    [
        ("com.exemplo.app://oauth/volta", "uma barra só depois do esquema (com.exemplo.app:/caminho)"),
        ("com.exemplo.app:volta", "o caminho começa com barra"),
        ("Com.Exemplo.App:/volta", "minúsculas"),
        ("com..exemplo:/volta", "domínio seu escrito ao contrário"),
        ("com.exemplo_app:/volta", "domínio seu escrito ao contrário"),
        ("loja.exemplo.com:8443/cb", "começando com https://"),
    ],
)
def test_a_malformed_own_scheme_says_why(uri, trecho):
    found = problema(uri, TESTE, TipoApp.publico)
    assert found is not None and trecho in found[1], found


@pytest.mark.parametrize(
    ("uri", "codigo", "trecho"),
    [
        ("http://localhost/cb", "formato_invalido", "http://localhost precisa da porta"),
        ("http://[::2]:8080/cb", "url_nao_https", "http:// só em apps de teste: localhost, 127.0.0.1 e [::1]"),
        ("http://127.0.0.2:8080/cb", "url_nao_https", "http:// só em apps de teste: localhost, 127.0.0.1 e [::1]"),
        ("http://loja.exemplo.com/cb", "url_nao_https", "precisa usar https://"),
        ("http://localhost.exemplo.com:8080/cb", "url_nao_https", "precisa usar https://"),
        ("ftp://loja.exemplo.com/cb", "url_nao_https", "começando com https://"),
        ("javascript:alert(1)", "url_nao_https", "começando com https://"),
        ("https:/loja.exemplo.com", "url_nao_https", "começando com https://"),
        ("//loja.exemplo.com/cb", "url_nao_https", "começando com https://"),
        ("/cb", "url_nao_https", "começando com https://"),
        ("https:///cb", "formato_invalido", "precisa ter um servidor"),
        ("https://loja.exemplo.com/cb#x", "formato_invalido", "não pode ter fragmento"),
        ("https://loja.exemplo.com/cb#", "formato_invalido", "não pode ter fragmento"),
        ("https://*.exemplo.com/cb", "formato_invalido", "curingas (*)"),
        ("https://loja.exemplo.com/cb?x=*", "formato_invalido", "curingas (*)"),
        ("https://user@loja.exemplo.com/cb", "formato_invalido", "usuário nem senha"),
        ("https://user:senha@loja.exemplo.com/cb", "formato_invalido", "usuário nem senha"),
        ("https://loja.exemplo.com\\@outra.com/cb", "formato_invalido", "barra invertida"),
        ("https://loja.exemplo.com/a b", "formato_invalido", "tem espaços"),
        ("https://lojá.exemplo.com/cb", "formato_invalido", "fora do ASCII"),
        ("https://loja_exemplo.com/cb", "formato_invalido", "nome do servidor"),
        ("https://loja.exemplo.com:0/cb", "formato_invalido", "porta"),
        ("https://loja.exemplo.com:70000/cb", "formato_invalido", "porta"),
        ("https://loja.exemplo.com:/cb", "formato_invalido", "porta"),
        ("https://loja.exemplo.com/\u0085", "caractere_invalido", "caracteres de controle"),
        ("https://loja.exemplo.com/" + "a" * 1976, "muito_longo", "passa de 2000 caracteres"),
        ("", "obrigatorio", "está vazio"),
    ],
)
def test_each_refused_uri_says_why_in_both_environments(uri, codigo, trecho):
    for ambiente in (TESTE, PRODUCAO):
        found = problema(uri, ambiente)
        assert found is not None, (uri, ambiente)
        if ambiente is PRODUCAO and uri.startswith("http://") and found[0] == "url_nao_https":
            continue  # production says "https only" first
        assert found[0] == codigo and found[1].startswith("Endereço 1") and trecho in found[1], found


def test_exactly_2000_characters_is_the_longest_accepted():
    base = "https://loja.exemplo.com/"
    assert problema(base + "a" * (2000 - len(base))) is None
    assert problema(base + "a" * (2001 - len(base)))[0] == "muito_longo"


def test_control_characters_are_not_echoed_back():
    codigo, mensagem = problema("https://loja.exemplo.com/\x1b[31m")
    assert codigo == "caractere_invalido" and "\x1b" not in mensagem


def test_one_to_five_addresses_each_problem_numbered_and_duplicates_named():
    assert problemas_redirect_uris([], TESTE)[0].mensagem.startswith("Informe pelo menos um endereço")
    five = [f"https://loja.exemplo.com/{n}" for n in range(5)]
    assert problemas_redirect_uris(five, PRODUCAO) == []
    too_many = problemas_redirect_uris([*five, "https://loja.exemplo.com/5"], TESTE)
    assert [(f.codigo, f.mensagem) for f in too_many] == [
        ("muito_longo", "No máximo 5 endereços de retorno por app; foram 6.")
    ]
    found = problemas_redirect_uris(
        [
            "https://a.exemplo.com/cb",
            "http://b.exemplo.com/cb",
            "https://a.exemplo.com/cb",
            "https://a.exemplo.com/cb/",
        ],
        TESTE,
    )
    assert [(f.codigo, f.mensagem.split(":")[0]) for f in found] == [
        ("url_nao_https", "Endereço 2 (http"),
        ("duplicado", "Endereço 3 (https"),
    ]
    assert found[1].mensagem.endswith("repete o endereço 1.")  # a trailing slash is another address


def test_long_addresses_are_shortened_in_messages():
    uri = "http://loja.exemplo.com/" + "a" * 100
    _, mensagem = problema(uri)
    assert uri not in mensagem and "…)" in mensagem and len(mensagem) < 160


def valid(**overrides):
    return {
        "nome": "Conector",
        "tipo": "confidencial",
        "redirectUris": ["https://loja.exemplo.com/cb"],
        "escopos": ["geracoes:criar", "produtos:ler"],
    } | overrides


def fields(model, dados, ambiente=TESTE) -> dict[str, list[str]]:
    with pytest.raises(ApiError) as refused:
        ler(model, dados, ambiente)
    assert refused.value.type == "VALIDATION_FAILED"
    found: dict[str, list[str]] = {}
    for f in refused.value.fields:
        found.setdefault(f.campo, []).append(f.mensagem)
    return found


def test_an_app_is_read_with_scopes_in_the_catalogue_order_once_each():
    app = ler(NovoApp, valid(escopos=["geracoes:criar", "produtos:ler", "geracoes:criar"], nome="  Conector  "), TESTE)
    assert app.tipo is TipoApp.confidencial and app.nome == "Conector"
    assert app.escopos == ["produtos:ler", "geracoes:criar"]


def test_every_problem_of_an_app_is_reported_at_once():
    found = fields(
        NovoApp, valid(nome="", tipo="secreto", escopos=[], redirectUris=["http://x.com", "https://a.com#b"])
    )
    assert set(found) == {"nome", "tipo", "escopos", "redirectUris"}
    assert len(found["redirectUris"]) == 2
    assert found["escopos"] == ["Escolha pelo menos um escopo."]
    assert fields(NovoApp, valid(nome="x" * 101))["nome"] == ["Máximo de 100."]
    assert "caracteres de controle" in fields(NovoApp, valid(nome="Conector\nnovo"))["nome"][0].lower()


def test_integrator_only_and_unknown_scopes_are_refused():
    found = fields(NovoApp, valid(escopos=["produtos:ler", "avisos:gerenciar", "creditos:ler"]))
    assert found["escopos"][0].startswith("avisos:gerenciar, creditos:ler: só a chave de API do integrador")
    assert "Escopos desconhecidos: tudo" in fields(NovoApp, valid(escopos=["tudo"]))["escopos"][0]


def test_an_edit_changes_only_what_it_names_and_never_the_type():
    edicao = ler(EdicaoApp, {"nome": "Novo nome"}, PRODUCAO)
    assert (edicao.nome, edicao.redirectUris, edicao.escopos) == ("Novo nome", None, None)
    assert "tipo" in fields(EdicaoApp, {"tipo": "publico"})
    assert (
        "apps de produção só aceitam https://"
        in fields(EdicaoApp, {"redirectUris": ["http://localhost:8080/cb"]}, PRODUCAO)["redirectUris"][0]
    )


def test_the_redirect_uri_rules_follow_the_apps_type():
    """A new app's own type; an edit's, the edited app's (the door and the service pass it)."""
    nativo = {"redirectUris": ["com.exemplo.app:/volta", "http://127.0.0.1/volta"]}
    assert ler(NovoApp, valid(tipo="publico") | nativo, PRODUCAO).redirectUris == nativo["redirectUris"]
    assert len(fields(NovoApp, valid(tipo="confidencial") | nativo, PRODUCAO)["redirectUris"]) == 2
    assert len(fields(NovoApp, valid(tipo="outro") | nativo, PRODUCAO)["redirectUris"]) == 2  # the stricter rules
    assert ler(EdicaoApp, nativo, PRODUCAO, TipoApp.publico).redirectUris == nativo["redirectUris"]
    assert len(fields(EdicaoApp, nativo, PRODUCAO)["redirectUris"]) == 2


def test_the_app_inputs_and_enums_are_typed_once_for_inputs_and_outputs():
    graphql = schema._schema
    mutation = graphql.get_type("Mutation")
    assert str(mutation.fields["criarAppOAuth"].args["dados"].type) == "NovoAppInput!"
    assert str(mutation.fields["editarAppOAuth"].args["dados"].type) == "EdicaoAppInput!"
    assert graphql.get_type("NovoAppInput").fields["tipo"].type.of_type is graphql.get_type("TipoApp")
    assert str(graphql.get_type("AppOAuth").fields["tipo"].type) == "TipoApp!"
    assert str(graphql.get_type("AppOAuth").fields["situacao"].type) == "SituacaoApp!"
    assert set(graphql.get_type("TipoApp").values) == {"confidencial", "publico"}
    assert set(graphql.get_type("SituacaoApp").values) == {"ativo", "desativado"}
