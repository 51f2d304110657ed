"""The ASGI application: the web app at /, /graphql (HTTP and WebSocket), /healthz, /readyz
and static files.

`uvicorn schema.asgi:create_app --factory` serves it; `trellis serve` does the same.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from app.health import check_backends
from app.localdb.endpoints import Endpoints
from app.services import Services, running_services
from app.settings import Settings
from schema import build_schema
from schema.body_limit import BodyLimit
from schema.view import TrellisGraphQL

STATIC_DIR = Path(__file__).resolve().parent.parent / "app" / "static"
WEB_PAGE = STATIC_DIR / "web" / "index.html"


def create_app(settings: Settings | None = None, endpoints: Endpoints | None = None) -> Starlette:
    settings = settings or Settings.from_env()
    graphql = TrellisGraphQL(build_schema(settings), graphiql=settings.serving.graphiql)
    return Starlette(
        routes=[
            Route("/", web_app),
            Route("/graphql", BodyLimit(graphql, settings.serving), methods=["GET", "POST"]),
            WebSocketRoute("/graphql", graphql),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
            Mount("/static", GZipMiddleware(StaticFiles(directory=STATIC_DIR)), name="static"),
        ],
        lifespan=_lifespan(settings, endpoints),
    )


def _lifespan(settings: Settings, endpoints: Endpoints | None):  # type: ignore[no-untyped-def]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with running_services(settings, endpoints) as services:
            app.state.services = services
            yield

    return lifespan


async def web_app(request: Request) -> FileResponse:
    """The page for people (app/static/web): it talks only to the public API."""
    return FileResponse(WEB_PAGE, headers={"Cache-Control": "no-cache"})


async def healthz(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> JSONResponse:
    """Ready when both databases answer and the warm-up has ended (app/search/warmup.py):
    until then a balancer keeps sending the first users elsewhere."""
    services: Services = request.app.state.services
    backends = await check_backends(services)
    down = [b.name for b in backends if not b.up]
    status = "unavailable" if down else "ready" if services.warm_up.done else "warming"
    body = {
        "status": status,
        "down": down,
        "backends": {
            b.name: {"up": b.up, "latencyMs": b.latency_ms, "error": b.error} for b in backends
        },
    }
    return JSONResponse(body, status_code=200 if status == "ready" else 503)


logging.getLogger("neo4j").setLevel(logging.WARNING)
