"""Per-request GraphQL context: the app's services and the caller's principal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket
from strawberry.types import Info as StrawberryInfo

from app.services import Services
from app.tenancy.auth import API_KEY_HEADER, Tenant, authenticate, key_from_connection_params
from app.tenancy.principal import Principal, Scope
from schema.loaders import Loaders


@dataclass
class Context:
    services: Services
    request: Request | WebSocket
    response: Response | WebSocket | None
    # Strawberry fills this from the graphql-transport-ws connection_init payload.
    connection_params: Any = None
    _principal: Principal | None = field(default=None, repr=False)
    _admitted: bool = field(default=False, repr=False)
    _loaders: Loaders | None = field(default=None, repr=False)

    @property
    def loaders(self) -> Loaders:
        """The per-node lookups, batched (schema/loaders.py)."""
        if self._loaders is None:
            self._loaders = Loaders(self.services, self.tenant)
        return self._loaders

    async def authenticate(self, counted_as: Scope | None = None) -> Principal:
        """The caller, looked up once per HTTP request and again for every operation of a
        WebSocket, so that a key revoked while the socket stays open stops at once. With
        `counted_as`, the request also counts against the key's rate ceiling in the same
        round trip, when the key holds that scope."""
        if self._principal is None or self.is_socket:
            pool, key = self.services.pool, self.api_key()
            self._principal = await authenticate(pool, key, counted_as)
            self._admitted = counted_as is not None and self._principal.may(counted_as)
        return self._principal

    async def principal(self) -> Principal:
        return self._principal or await self.authenticate()

    async def tenant(self) -> Tenant:
        return (await self.principal()).tenant

    async def admit(self) -> None:
        """Count this request against the key's rate ceiling, once."""
        if not self._admitted:
            await self.services.preflight.admit(await self.principal())
            self._admitted = True

    @property
    def is_socket(self) -> bool:
        return isinstance(self.request, WebSocket)

    def api_key(self) -> str | None:
        if self.is_socket:
            return key_from_connection_params(self.connection_params)
        return self.request.headers.get(API_KEY_HEADER)


Info = StrawberryInfo[Context, None]
