"""Per-request GraphQL context: the app's services and the caller's tenant."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket
from strawberry.types import Info as StrawberryInfo

from app.services import Services
from app.tenancy.auth import API_KEY_HEADER, Tenant, authenticate, key_from_connection_params


@dataclass
class Context:
    services: Services
    request: Request | WebSocket
    response: Response | WebSocket | None
    # Strawberry fills this from the graphql-transport-ws connection_init payload.
    connection_params: Any = None
    _tenant: Tenant | None = field(default=None, repr=False)

    async def tenant(self) -> Tenant:
        """The authenticated tenant; raises UNAUTHENTICATED. Looked up once per request."""
        if self._tenant is None:
            self._tenant = await authenticate(self.services.pool, self.api_key())
        return self._tenant

    def api_key(self) -> str | None:
        if isinstance(self.request, WebSocket):
            return key_from_connection_params(self.connection_params)
        return self.request.headers.get(API_KEY_HEADER)


Info = StrawberryInfo[Context, None]
