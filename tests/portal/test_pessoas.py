"""People: sign-up, password reset by e-mail, invites, roles and the outbox's password links."""

from datetime import UTC, datetime, timedelta

from graphql_api.chave.models import ChaveApi
from graphql_api.email.models import Email
from graphql_api.integrador.models import Integrador
from graphql_api.usuario.models import LinkSenha, Sessao, Usuario
from tests.factories import eventually
from tests.portal.conftest import Pessoa
from tests.portal.conftest import join as _join
from tests.portal.conftest import link_in_outbox as _link_in_outbox


async def test_sign_up_creates_the_integrator_and_its_owner_without_a_hidden_key(portal):
    pessoa = await portal.signup(email="Dona.Ana@Integradora.TEST", empresa="Loja de Software Ltda")
    page = await portal.page("/visao-geral?aviso=bem_vindo")
    assert "Loja de Software Ltda" in page and "Conta criada" in page
    usuario = await Usuario.get(email="dona.ana@integradora.test")  # e-mails are kept lower-case
    assert usuario.papel == "dono" and usuario.hash_senha.startswith("$argon2id$")
    integrador = await Integrador.get(id=usuario.integrador_id)
    assert integrador.email == "alertas@integradora.test"
    # no key was created behind the person's back: the first one is made on the keys page
    assert await ChaveApi.filter(integrador_id=integrador.id).count() == 0
    assert "Nenhuma chave ativa" in page
    assert pessoa.email


async def test_sign_up_errors_are_shown_beside_each_field(portal, new_portal):
    response = await portal.submit(
        "/cadastro",
        {
            "empresa": "",
            "emailAlertas": "não-é-email",
            "nome": "Ana",
            "email": "ana@x.test",
            "senha": "curta",
        },
    )
    assert response.status == 422
    page = await response.text()
    assert 'id="erro-empresa"' in page and "Campo obrigatório." in page
    assert 'id="erro-emailAlertas"' in page and "Informe um e-mail válido" in page
    assert 'id="erro-senha"' in page and "Use pelo menos 10 caracteres." in page
    assert 'value="Ana"' in page and "curta" not in page  # typed values come back, never the password
    # the same e-mail twice
    first = await new_portal()
    taken = await first.signup()
    response = await portal.submit(
        "/cadastro",
        {
            "empresa": "Outra",
            "emailAlertas": "a@b.test",
            "nome": "B",
            "email": taken.email,
            "senha": "senha-comprida-ok",
        },
    )
    assert response.status == 422
    assert "Já existe uma pessoa com este e-mail" in await response.text()


async def test_password_reset_link_is_single_use_and_ends_every_session(client, portal, new_portal, owner, smtp_inbox):
    other_device = await new_portal()
    assert (await other_device.signin(owner)).status == 303
    await portal.signout()
    # when the person asks for a reset
    response = await portal.submit("/senha/esqueci", {"email": owner.email})
    assert response.status == 303 and response.headers["Location"] == "/entrar?aviso=link_enviado"
    link = await _link_in_outbox(owner.email)

    async def delivered():  # the test's real SMTP server received it too
        assert any(owner.email in str(m["To"]) and link in m.get_content() for m in smtp_inbox)

    await eventually(delivered, timeout=15)
    # the link opens the form and sets the new password
    assert "Nova senha" in await portal.page(link)
    token = link.split("=", 1)[1]
    new = Pessoa(owner.email, "a nova senha comprida")
    response = await portal.submit("/senha/definir", {"token": token, "senha": new.senha}, token_from=link)
    assert response.status == 303 and response.headers["Location"] == "/entrar?aviso=senha_definida"
    # every session that knew the old password is gone
    assert (await other_device.get("/visao-geral")).status == 303
    # the old password fails, the new one works
    assert (await portal.signin(owner)).status == 401
    assert (await portal.signin(new)).status == 303
    # the link works once
    response = await portal.get(link)
    assert response.status == 410 and "Link expirado ou já usado" in await response.text()
    response = await portal.submit(
        "/senha/definir", {"token": token, "senha": "mais uma senha longa"}, token_from="/visao-geral"
    )
    assert response.status == 422 and "expirou ou já foi usado" in await response.text()


async def test_password_reset_link_expires(portal, owner):
    await portal.signout()
    await portal.submit("/senha/esqueci", {"email": owner.email})
    link = await _link_in_outbox(owner.email)
    usuario = await Usuario.get(email=owner.email)
    await LinkSenha.filter(usado_em__isnull=True, usuario_id=usuario.id).update(
        expira_em=datetime.now(UTC) - timedelta(seconds=1)
    )
    assert (await portal.get(link)).status == 410
    token = link.split("=", 1)[1]
    response = await portal.submit(
        "/senha/definir", {"token": token, "senha": "senha nova e longa"}, token_from="/entrar"
    )
    assert response.status == 422
    assert (await portal.signin(owner)).status == 303  # the old password still holds


async def test_reset_for_an_unknown_e_mail_answers_the_same_and_sends_nothing(portal):
    response = await portal.submit("/senha/esqueci", {"email": "ninguem-aqui@exemplo.test"})
    assert response.status == 303 and response.headers["Location"] == "/entrar?aviso=link_enviado"
    assert await Email.filter(para="ninguem-aqui@exemplo.test").count() == 0


async def test_reset_links_are_limited_per_hour(portal, owner):
    await portal.signout()
    for _ in range(5):
        await portal.submit("/senha/esqueci", {"email": owner.email})
    assert await Email.filter(para=owner.email, tipo="senha_redefinicao").count() == 3


async def test_invited_people_choose_their_password_and_get_their_role(portal, new_portal, owner):
    # the owner invites a developer
    response = await portal.submit(
        "/equipe", {"nome": "Dev Davi", "email": "davi@integradora.test", "papel": "desenvolvedor"}
    )
    assert response.status == 303 and response.headers["Location"] == "/equipe?aviso=convite_enviado"
    page = await portal.page("/equipe")
    assert "Dev Davi" in page and "convite pendente" in page
    # the invite arrives with a link; the person chooses a password
    link = await _link_in_outbox("davi@integradora.test")
    davi = await new_portal()
    assert "Bem-vindo(a), Dev Davi" in await davi.page(link)
    response = await davi.submit(
        "/senha/definir", {"token": link.split("=", 1)[1], "senha": "senha do davi longa"}, token_from=link
    )
    assert response.status == 303
    assert (await davi.signin(Pessoa("davi@integradora.test", "senha do davi longa"))).status == 303
    # a developer works with keys and calls, not with the team
    assert (await davi.get("/chaves")).status == 200
    assert (await davi.get("/chamadas")).status == 200
    response = await davi.get("/equipe")
    assert response.status == 403
    assert "Equipe" not in (await davi.page("/visao-geral")).split("<main", 1)[0].split("portal-nav", 1)[1]


async def test_finance_sees_balance_and_accounts_but_not_keys_or_calls(portal, new_portal, owner):
    fina, _ = await _join(portal, new_portal, "Fina", "financeiro")
    overview = await fina.page("/visao-geral")
    assert "Saldo" in overview and "Últimas chamadas" not in overview
    assert (await fina.get("/contas")).status == 200
    for path in ("/chaves", "/chamadas", "/equipe"):
        response = await fina.get(path)
        assert response.status == 403, path
        assert "O seu papel no integrador não permite" in await response.text()


async def test_the_last_owner_stays_and_nobody_removes_themselves(portal, owner):
    me = await Usuario.get(email=owner.email)
    response = await portal.submit(f"/equipe/{me.id}/papel", {"papel": "financeiro"}, token_from="/equipe")
    assert response.status == 422
    assert "pelo menos um dono" in await response.text()
    response = await portal.submit(f"/equipe/{me.id}/remover", {}, token_from="/equipe")
    assert response.status == 422
    assert "não pode remover a si mesmo" in await response.text()
    assert (await Usuario.get(id=me.id)).papel == "dono"


async def test_removing_a_person_ends_their_sessions(portal, new_portal, owner):
    temp, pessoa = await _join(portal, new_portal, "Temp", "desenvolvedor")
    usuario = await Usuario.get(email=pessoa.email)
    assert "Remover Temp?" in await portal.page(f"/equipe/{usuario.id}/remover")
    response = await portal.submit(f"/equipe/{usuario.id}/remover", {}, token_from="/equipe")
    assert response.status == 303
    assert await Sessao.filter(usuario_id=usuario.id).count() == 0
    assert (await temp.get("/chaves")).status == 303


async def test_password_links_in_the_outbox_need_an_owner_who_typed_the_password(portal, new_portal, owner):
    dev, _ = await _join(portal, new_portal, "Outra Dev", "desenvolvedor")
    # the owner asks for a reset: a developer must never read that link
    await portal.client.post("/senha/esqueci", data={"email": owner.email, "csrf": await portal.csrf("/visao-geral")})
    email = await Email.filter(para=owner.email, tipo="senha_redefinicao").first()
    listing = await dev.page("/emails")
    assert "Redefinição de senha da Vitrine" in listing
    page = await dev.page(f"/emails/{email.id}")
    assert "só donos da conta podem ver" in page and "/senha/definir?token=" not in page
    # the owner sees it only after typing the password again
    page = await portal.page(f"/emails/{email.id}")
    assert "Confirme a sua senha" in page and "/senha/definir?token=" not in page
    await portal.submit(
        "/reautenticar", {"senha": owner.senha, "proximo": f"/emails/{email.id}"}, token_from="/reautenticar"
    )
    assert "/senha/definir?token=" in await portal.page(f"/emails/{email.id}")
