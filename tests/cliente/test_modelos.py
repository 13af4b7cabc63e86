"""The client cannot drift from the contract: its models are what datamodel-code-generator
makes of the running service's /v1/openapi.json, and every error type has its exception."""

import asyncio
import difflib
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader
from pathlib import Path

import vitrine_client
from vitrine_client import erros
from vitrine_client.modelos import TipoErro

CLIENTE = Path(vitrine_client.__file__).resolve().parent.parent
# the script has no .py suffix (it is a command): loaded by hand
_carregador = SourceFileLoader("gerar_modelos", str(CLIENTE / "scripts" / "gerar_modelos"))
gerar_modelos = module_from_spec(spec_from_loader("gerar_modelos", _carregador))
_carregador.exec_module(gerar_modelos)


async def test_models_are_the_ones_generated_from_the_running_service(client):
    # given the OpenAPI document the service serves now
    response = await client.get("/v1/openapi.json")
    assert response.status == 200
    documento = await response.read()
    # when the models are generated again, exactly as scripts/gerar_modelos does
    gerado = await asyncio.to_thread(gerar_modelos.gerar, documento)
    # then they are the checked-in file, to the byte
    guardado = (CLIENTE / "vitrine_client" / "modelos.py").read_text()
    diferenca = "".join(difflib.unified_diff(guardado.splitlines(True), gerado.splitlines(True), "guardado", "gerado"))
    assert gerado == guardado, (
        "vitrine_client/modelos.py está desatualizado em relação a /v1/openapi.json; rode "
        "clients/python/scripts/gerar_modelos com o serviço de pé.\n" + diferenca[:6000]
    )


def test_every_error_type_of_the_contract_has_its_exception():
    assert set(erros.POR_TIPO) == {t.value for t in TipoErro}
    for tipo, classe in erros.POR_TIPO.items():
        assert issubclass(classe, erros.ErroVitrine)
        assert classe.__name__ in vitrine_client.__all__
        assert erros.classe_do_tipo(tipo) is classe
    assert len(set(erros.POR_TIPO.values())) == len(TipoErro)  # no class serves two types
    assert erros.classe_do_tipo("TIPO_DE_UMA_VERSAO_FUTURA") is erros.ErroVitrine
