"""The consent screen and the seller's pages against an attacker's browser."""

import asyncio
from urllib.parse import parse_qs, urlsplit

from tests.portal.test_consentimento import REDIRECT, authorize_url


async def test_consents_sent_at_once_still_stop_at_ten(portal, oauth, integrator):
    app = await oauth.app(integrator, redirect_uri=REDIRECT)
    await portal.seller_signup()
    url = authorize_url(app)
    token = await portal.csrf(url)
    form = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()} | {"csrf": token, "decisao": "autorizar"}

    async def consent() -> str:
        response = await portal.client.post("/oauth/autorizar", data=form, allow_redirects=False)
        assert response.status == 303, await response.text()
        return parse_qs(urlsplit(response.headers["Location"]).query).get("code", [""])[0]

    codes = [code for code in await asyncio.gather(*(consent() for _ in range(16))) if code]
    assert len(codes) == 10
