"""``EncodedAnswer`` sends what Litestar's own ``Response`` sends: body, headers, their order."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Litestar, Response, post
from litestar.params import PathParameter
from litestar.testing import AsyncTestClient

from russian_poker.service.app.encoded import EncodedAnswer, _Prepared


class Body(msgspec.Struct):
    version: int
    names: list[str]
    nested: dict[str, Any]


BODY = Body(version=7, names=["é", "b"], nested={"x": [1, 2.5, None, True]})


@post("/plain/{replayed:int}", status_code=200)
async def plain(replayed: Annotated[int, PathParameter()]) -> Response[Body]:
    return Response(
        BODY, status_code=200, headers={"Idempotent-Replayed": "true"} if replayed else None
    )


@post("/encoded/{replayed:int}", status_code=200)
async def encoded(replayed: Annotated[int, PathParameter()]) -> Response[Body]:
    headers = {"Idempotent-Replayed": "true"} if replayed else None
    return EncodedAnswer(BODY, status_code=200, headers=headers)


@post("/cookie", status_code=200)
async def cookie() -> Response[Body]:
    answer = EncodedAnswer(BODY, status_code=201)
    answer.set_cookie("k", "v")
    return answer


async def test_the_same_bytes_as_litestars_response() -> None:
    async with AsyncTestClient(app=Litestar([plain, encoded, cookie])) as client:
        for replayed in (0, 1):
            litestar = await client.post(f"/plain/{replayed}")
            ours = await client.post(f"/encoded/{replayed}")
            assert ours.status_code == litestar.status_code == 200
            assert ours.content == litestar.content
            assert ours.headers.raw == litestar.headers.raw
            assert ("idempotent-replayed" in ours.headers) is bool(replayed)
        # A cookie is not this class's to send: Litestar's conversion does, as always.
        with_cookie = await client.post("/cookie")
        assert with_cookie.status_code == 201
        assert with_cookie.cookies["k"] == "v"
        assert with_cookie.json()["version"] == 7


def test_only_plain_answers_are_prepared() -> None:
    request: Any = None
    assert isinstance(
        EncodedAnswer(BODY, status_code=200).to_asgi_response(app=None, request=request), _Prepared
    )
    for refused in (
        EncodedAnswer(None, status_code=204),
        EncodedAnswer(BODY, status_code=200, headers={"Content-Type": "text/plain"}),
        EncodedAnswer("hello", status_code=200, media_type="text/plain"),
    ):
        assert not isinstance(refused.to_asgi_response(app=None, request=request), _Prepared)
