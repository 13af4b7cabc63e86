"""Schemathesis hooks of the conformance test (loaded through SCHEMATHESIS_HOOKS by the `st`
process that tests/api/test_openapi_conformance.py starts; also usable by hand, docs/desenvolvimento.md).

- Every generated Idempotency-Key that is well formed becomes a fresh one, so a credit-spending POST
  runs instead of replaying or colliding with an earlier call; a malformed one (a negative case of
  the header itself) is sent as generated, to exercise IDEMPOTENCY_KEY_INVALID.
- Every call is written to VITRINE_CONFORMANCE_LOG ("METHOD /template status"), so the test can
  prove each operation of the document was really called.
- The document's string format "gtin" (a ficha's GTIN: its check digit is what no pattern says)
  is generated as GTINs with the right check digit."""

import os
import uuid

import schemathesis
from hypothesis import strategies as st

from rest_v1.middlewares.idempotency import HEADER, KEY_PATTERN


@schemathesis.hook
def before_call(context, case, kwargs):
    headers = case.headers or {}
    for name in list(headers):
        if name.lower() == HEADER.lower() and isinstance(headers[name], str) and KEY_PATTERN.fullmatch(headers[name]):
            headers[name] = f"conf-{uuid.uuid4().hex}"


@schemathesis.hook
def after_call(context, case, response):
    log = os.environ.get("VITRINE_CONFORMANCE_LOG")
    if log:
        with open(log, "a") as file:
            file.write(f"{case.operation.method.upper()} {case.operation.path} {response.status_code}\n")


def _with_check_digit(body: str) -> str:
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return body + str((10 - total % 10) % 10)


schemathesis.openapi.format(
    "gtin",
    st.sampled_from([7, 11, 12, 13])
    .flatmap(lambda n: st.text("0123456789", min_size=n, max_size=n))
    .map(_with_check_digit),
)
