"""The portal's plan page: the plan, the cycle and the quota of the environment, the catalogue,
an upgrade at once, a downgrade scheduled and cancelled; developers only read; a production
change asks the password again."""

from tests.portal.conftest import join


async def test_owner_changes_the_plan_of_teste(portal, owner):
    page = await portal.page("/plano")
    assert "Gratuito" in page and "R$ 0,00" in page and "Plano atual" in page
    assert "Mudar para Essencial" in page and "R$ 99,00" in page
    # an upgrade: at once, the difference of credits in the balance
    response = await portal.submit("/plano", {"plano": "profissional"})
    assert response.status == 303 and response.headers["Location"] == "/plano?aviso=plano_alterado"
    page = await portal.page("/plano?aviso=plano_alterado")
    assert "Plano alterado" in page and '<p class="big">Profissional' in page
    assert "Saldo: 2.000 do plano + 1.000 de pacotes = 3.000 disponíveis" in page
    assert "0 de 2.000 créditos do plano usados" in page
    # a downgrade: scheduled, shown, and cancelled
    response = await portal.submit("/plano", {"plano": "essencial"})
    assert response.headers["Location"] == "/plano?aviso=plano_agendado"
    page = await portal.page("/plano")
    assert "Mudança agendada para o plano <strong>Essencial</strong>" in page
    response = await portal.submit("/plano/cancelar", {}, token_from="/plano")
    assert response.headers["Location"] == "/plano?aviso=mudanca_cancelada"
    assert "Mudança agendada" not in await portal.page("/plano")
    # the statement names the new kind of entry
    assert "Créditos do plano" in await portal.page("/extrato")
    # an unknown plan is said on the page
    response = await portal.submit("/plano", {"plano": "platina"})
    assert response.status == 422 and "Plano inexistente" in await response.text()


async def test_developers_read_the_plan_but_do_not_change_it(portal, owner, new_portal):
    developer, _ = await join(portal, new_portal, "Dev", "desenvolvedor")
    page = await developer.page("/plano")
    assert "Plano atual" in page and "Mudar para" not in page
    assert (await developer.submit("/plano", {"plano": "escala"}, token_from="/plano")).status == 403


async def test_a_production_change_asks_for_the_password(portal, owner):
    await portal.switch("producao")
    response = await portal.submit("/plano", {"plano": "essencial"}, token_from="/plano")
    assert response.status == 303 and response.headers["Location"].startswith("/reautenticar")
    await portal.reauthenticate(owner, proximo="/plano")
    response = await portal.submit("/plano", {"plano": "essencial"}, token_from="/plano")
    assert response.headers["Location"] == "/plano?aviso=plano_alterado"
    page = await portal.page("/plano")
    assert '<p class="big">Essencial' in page and "Saldo: 500 do plano + 0 de pacotes = 500 disponíveis" in page
